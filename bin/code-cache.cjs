// Runs a CommonJS bundle (bin/build.mjs) compiled from V8's code cache, kept beside it as <file>.v8cache: parsing and
// compiling the API process's ~5 MB bundle took ~200 ms of every start, reading compiled code from the cache ~50.
// The cache is written by the first process that runs without one (or whose cache V8 rejects: another Node version
// or other V8 flags), once the bundle's modules have run, so it holds the functions their loading compiled too, and
// again once a process has served its first request.
// CommonJS itself, so that the process it starts never initialises the ES module loader.
'use strict';
const { existsSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname } = require('node:path');
const vm = require('node:vm');

/** where the process that wrote the cache finds how to write it again (bin/api-process.ts) */
const REWRITE_AFTER_FIRST_REQUEST = Symbol.for('commerce-platform.code-cache.rewrite-after-first-request');

/** @param {string} file the bundle's absolute path @param {'latin1' | 'utf8'} encoding how its text is read: latin1
 * when it is ASCII (bin/build.mjs settles which when it writes the runner)
 * @returns {unknown} the bundle's exports */
function runWithCodeCache(file, encoding) {
  const cacheFile = `${file}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined; // none yet
  }
  // The file is already the module's function (bin/build.mjs): its text is compiled as read, one copy of it.
  const script = new vm.Script(sourceText(file, encoding), {
    // No importModuleDynamically: V8 drops it from a script compiled from the cache, so the bundle holds no import()
    // (bin/build.mjs), and one that did would fail on every start alike, not only on those after the first.
    filename: file, cachedData,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, Module.createRequire(file), module, file, dirname(file));
  // The functions a request runs are compiled when the first request runs them, after the cache is first written:
  // the cache is marked partial until a process that runs from it has served one and written it again (bin/api-process.ts
  // calls the rewrite), so that later starts answer their first request from compiled code too. The process that wrote
  // it may never serve (`npm start`'s warm-up server hands over to its API process, which then runs from its cache).
  const partial = `${cacheFile}.partial`;
  if (!cachedData || script.cachedDataRejected) {
    writeAtomically(partial, Buffer.alloc(0));
    writeAtomically(cacheFile, script.createCachedData());
  } else if (!existsSync(partial)) {
    return module.exports;
  }
  globalThis[REWRITE_AFTER_FIRST_REQUEST] = () => {
    delete globalThis[REWRITE_AFTER_FIRST_REQUEST];
    rmSync(partial, { force: true });
    writeAtomically(cacheFile, script.createCachedData());
  };
  return module.exports;
}

/** An ASCII file read as Latin-1 is a one-byte string, ~3x faster to make than from UTF-8. */
function sourceText(file, encoding) {
  const bytes = readFileSync(file);
  return encoding === 'latin1' ? bytes.latin1Slice(0, bytes.length) : bytes.toString('utf8');
}

/** Several processes may start at once: each writes its own file and renames it, so none reads half a cache. */
function writeAtomically(path, data) {
  const partial = `${path}.${process.pid}`;
  try {
    writeFileSync(partial, data);
    renameSync(partial, path);
  } catch {
    rmSync(partial, { force: true }); // a read-only dist/ runs without a cache
  }
}

module.exports = { runWithCodeCache };
