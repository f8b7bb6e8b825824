import { Command, Argument } from 'commander';
import { IMPORT_KINDS, type ImportKind } from '../../domain/catalog/ndjson-import.js';
import { CliError } from '../cli-error.js';
import { withServices } from '../with-services.js';
import { progressReporter } from '../progress.js';

export function importCommand(): Command {
  return new Command('import')
    .description('Import brands, products or campaigns from NDJSON: one resource per line, in the API\'s own JSON shape. Exit code 2 when some rows were rejected.')
    .addArgument(new Argument('<kind>', 'what the file holds').choices(IMPORT_KINDS))
    .argument('<file>', 'NDJSON file')
    .action(async (kind: ImportKind, file: string) => {
      await withServices(async ({ imports }) => {
        const progress = progressReporter();
        const summary = await imports.importNdjson(kind, file, {
          onProgress: progress.update,
          onRejected: (line, reason) => {
            progress.pause();
            process.stderr.write(`line ${line}: ${reason}\n`);
          },
        }).finally(() => progress.stop());
        console.log(`${kind}: ${summary.inserted} inserted, ${summary.updated} updated, ${summary.rejected} rejected (${summary.lines} lines read)`);
        if (summary.rejected > 0) throw new CliError(`${summary.rejected} row(s) rejected; see the lines above`, 2);
      });
    });
}
