// The type check and the lint in one process, over one TypeScript program per tsconfig: the
// lint's type-aware rules read the types the type check has just worked out instead of building
// and checking every file again (`npm run typecheck` and `npm run lint` alone did each: about a
// third more CPU, in a suite that keeps both cores busy). Prints tsc's diagnostics, then ESLint's
// report; exits 1 on any error of either.
import ts from 'typescript';
import { ESLint } from 'eslint';

const TSCONFIGS = ['tsconfig.json', 'portal/tsconfig.json'];
const formatHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => ts.sys.newLine };

const programs = TSCONFIGS.map((path) => {
  const config = ts.getParsedCommandLineOfConfigFile(path, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(`${path}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    },
  });
  if (config.errors.length > 0) throw new Error(ts.formatDiagnostics(config.errors, formatHost));
  return ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
});

const typeErrors = programs.flatMap((program) => ts.getPreEmitDiagnostics(program)).filter((d) => d.category === ts.DiagnosticCategory.Error);
if (typeErrors.length > 0) process.stdout.write(`${ts.formatDiagnostics(typeErrors, formatHost)}\n${typeErrors.length} type error(s)\n`);

// The configuration's projectService finds each file's tsconfig itself; here the programs above are given instead.
const eslint = new ESLint({ overrideConfig: [{ files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'], languageOptions: { parserOptions: { projectService: false, programs } } }] });
const results = await eslint.lintFiles(['.']);
const report = (await eslint.loadFormatter('stylish')).format(results);
if (report) process.stdout.write(report);
const lintErrors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);

if (typeErrors.length > 0 || lintErrors > 0) process.exit(1);
