#!/usr/bin/env node
// affnet: the operator's command line. Every command reads the same environment as the server
// (DATABASE_URL, PORT, HOST, PUBLIC_URL, REDIS_URL).
import { Command, CommanderError } from 'commander';
import { serveCommand } from './commands/serve.js';
import { migrateCommand } from './commands/migrate.js';
import { seedCommand } from './commands/seed.js';
import { keysCommand } from './commands/keys.js';
import { brandsCommand } from './commands/brands.js';
import { importCommand } from './commands/import.js';
import { affiliatesCommand } from './commands/affiliates.js';
import { linksCommand } from './commands/links.js';
import { statementsCommand } from './commands/statements.js';
import { payoutsCommand } from './commands/payouts.js';
import { adjustCommand, ledgerCommand } from './commands/ledger.js';
import { analyticsCommand } from './commands/analytics.js';
import { visitorSaltCommand } from './commands/visitor-salt.js';
import { configCommand } from './commands/config.js';
import { backupCommand, restoreCommand } from './commands/backup.js';
import { usersCommand } from './commands/users.js';
import { applicationsCommand } from './commands/applications.js';
import { payeeCommand } from './commands/payee.js';
import { holdsCommand } from './commands/holds.js';
import { CliError } from './cli-error.js';

const program = new Command('affnet')
  .description('Affiliate network service: serve the API, migrate, seed demo data, manage keys, postback tokens and affiliates, import catalogues')
  .showHelpAfterError()
  .exitOverride();

program.addCommand(serveCommand());
program.addCommand(migrateCommand());
program.addCommand(seedCommand());
program.addCommand(keysCommand());
program.addCommand(usersCommand());
program.addCommand(applicationsCommand());
program.addCommand(brandsCommand());
program.addCommand(importCommand());
program.addCommand(affiliatesCommand());
program.addCommand(linksCommand());
program.addCommand(statementsCommand());
program.addCommand(payoutsCommand());
program.addCommand(holdsCommand());
program.addCommand(ledgerCommand());
program.addCommand(adjustCommand());
program.addCommand(analyticsCommand());
program.addCommand(visitorSaltCommand());
program.addCommand(payeeCommand());
program.addCommand(configCommand());
program.addCommand(backupCommand());
program.addCommand(restoreCommand());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  }
}
