import { Command } from 'commander';
import { withServices } from '../with-services.js';

export function visitorSaltCommand(): Command {
  const salt = new Command('visitor-salt').description("The installation's salt of visitor and address hashes");
  salt
    .command('rotate')
    .description(
      'Replace the salt with a new random one (used by each instance from its next start; ignored while VISITOR_SALT is set). Visitors are new again: repeat clicks and address velocity are counted afresh.',
    )
    .action(async () => {
      await withServices(async ({ installation }) => {
        await installation.rotateVisitorSalt();
        console.log('Visitor salt replaced. Restart every instance to use it.');
      });
    });
  return salt;
}
