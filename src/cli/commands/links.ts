import { Command } from 'commander';
import { setLinkActive } from '../../storage/repositories/links.js';
import { nowIso } from '../../domain/time.js';
import { CliError } from '../cli-error.js';
import { withDatabase } from '../with-database.js';
import { announce } from '../announce.js';

export function linksCommand(): Command {
  const links = new Command('links').description('Manage short links');
  for (const [name, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    links
      .command(name)
      .description(active ? 'Make a short link redirect again' : 'Stop a short link: it answers 404 and counts nothing (running servers see it at once with Redis, within about a second without)')
      .argument('<code>', 'the urlCode of the link')
      .action(async (code: string) => {
        await withDatabase(async (database, config) => {
          if (!(await setLinkActive(database, code, active, nowIso()))) throw new CliError(`no short link with code "${code}"`);
          await announce(config, { kind: 'link', code });
          console.log(`Link ${code} ${active ? 'activated' : 'deactivated'}.`);
        });
      });
  }
  return links;
}
