// A test reporter beside TAP (scripts/run-tests.mjs): how long each test file's top-level tests
// took, as one JSON line [[file, ms], ...], so the run can name its slowest files: where to look
// when the suite grows slower.
export default async function* fileDurations(source) {
  const files = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      files.set(event.data.file, (files.get(event.data.file) ?? 0) + (event.data.details.duration_ms ?? 0));
    }
  }
  yield `${JSON.stringify([...files])}\n`;
}
