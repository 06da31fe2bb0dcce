// `npm run diff`: with `--key <id>` the upgrade assistant for one API key (./upgrade-assistant-cli.ts, which reads a
// database), otherwise the diff between two versions (generator/diff.ts, which reads spec/ only). The choice is made
// here because bin/ may import the generator and the handlers, while the generator imports nothing from bin/
// (.dependency-cruiser.cjs); each side is loaded only when asked for, so the plain diff needs no database.
if (process.argv.includes('--key')) {
  const { runUpgradeAssistant } = await import('./upgrade-assistant-cli.js');
  process.exit(await runUpgradeAssistant(process.argv.slice(2)));
} else {
  (await import('../generator/diff.js')).main();
}
