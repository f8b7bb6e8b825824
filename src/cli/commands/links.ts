import { Command } from 'commander';
import { withServices } from '../with-services.js';

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
        await withServices(async ({ links }) => {
          await links.setActive(code, active);
          console.log(`Link ${code} ${active ? 'activated' : 'deactivated'}.`);
        });
      });
  }
  return links;
}
