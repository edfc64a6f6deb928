// The sandbox's worker thread: compiles users' JSON Schemas and runs users' patterns, away from the
// event loop. The main thread gives each task a time budget and ends this thread when a task
// overruns it (see user-input-sandbox.ts), so no task here can hold up a request but its own.
import { pbkdf2Sync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Ajv } from 'ajv';
import { compileSafePattern, safeRegExpEngine, UnsafePatternError } from './safe-pattern.mjs';

// Below the event loop's priority (Linux: this lowers this thread only), so requests get a core first.
try {
  if (workerData?.nice > 0) os.setPriority(0, workerData.nice);
} catch {
  // not permitted here: run at the process's priority
}

/** JSON Schema (the keywords Ajv knows) compiled strictly: a typo is an error, not a no-op. */
function compileSchema(text) {
  const ajv = new Ajv({ allErrors: true, strict: true, code: { regExp: safeRegExpEngine } });
  try {
    return { validate: ajv.compile(JSON.parse(text)) };
  } catch (e) {
    if (e instanceof UnsafePatternError) return { error: e.message };
    // A RangeError (stack) or anything else internal is not the user's to read.
    if (!(e instanceof Error) || e instanceof RangeError) return { error: 'The schema cannot be compiled.' };
    return { error: e.message };
  }
}

const errorsOf = (errors) =>
  (errors ?? []).map((e) => ({ Path: e.instancePath || '/', Message: e.message ?? 'is not valid' }));

const tasks = {
  /** { schema } -> { error? } */
  checkSchema({ schema }) {
    const c = compileSchema(schema);
    return c.error ? { error: c.error } : {};
  },
  /** { schema, sample } -> { schemaError } | { sampleError } | { valid, errors } */
  validate({ schema, sample }) {
    const c = compileSchema(schema);
    if (c.error) return { schemaError: c.error };
    let value;
    try {
      value = JSON.parse(sample);
    } catch {
      return { sampleError: 'The sample is not valid JSON.' };
    }
    const valid = c.validate(value);
    return { valid: Boolean(valid), errors: errorsOf(c.validate.errors) };
  },
  /** { pattern, values } -> { error } | { unmatched: values that do not match } */
  match({ pattern, values }) {
    let re;
    try {
      re = compileSafePattern(pattern);
    } catch (e) {
      return { error: e.message };
    }
    return { unmatched: values.filter((v) => !re.test(v)) };
  },
  /** { material, salt, iterations, keylen, digest } -> { key }: a hashing preview's PBKDF2, on this (low-priority) thread. */
  pbkdf2({ material, salt, iterations, keylen, digest }) {
    return { key: pbkdf2Sync(Buffer.from(material), Buffer.from(salt), iterations, keylen, digest) };
  },
};

parentPort.on('message', ({ id, kind, input }) => {
  let result;
  try {
    result = { id, output: tasks[kind](input) };
  } catch (e) {
    result = { id, failure: e instanceof RangeError ? 'too deep' : String(e?.message ?? e) };
  }
  parentPort.postMessage(result);
});

// Warm up before saying so: a fresh thread's first schema compile and first pattern run cost several
// times a warm one (code generation, JIT), and that is the worker's start-up, not the user's task.
tasks.validate({
  schema: '{"type":"object","properties":{"a":{"type":"string","pattern":"^a+$"}}}',
  sample: '{"a":"a"}',
});
tasks.match({ pattern: '^a+$', values: ['a', 'b'] });

/** This thread's id (Linux), for the main thread to read the CPU time it spends; undefined elsewhere. */
function threadId() {
  try {
    return Number(fs.readlinkSync('/proc/thread-self').split('/').pop()) || undefined;
  } catch {
    return undefined;
  }
}

// Loaded: the main thread starts a task's clock only now, so start-up never counts against a budget.
parentPort.postMessage({ ready: true, tid: threadId() });
