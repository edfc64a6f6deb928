/** The tasks of user-input-worker.mjs: what each takes and answers. */
export interface UserInputTasks {
  checkSchema: { input: { schema: string }; output: { error?: string } };
  validate: {
    input: { schema: string; sample: string };
    output:
      | { schemaError: string }
      | { sampleError: string }
      | { valid: boolean; errors: Array<{ Path: string; Message: string }> };
  };
  match: {
    input: { pattern: string; values: string[] };
    output: { error: string } | { unmatched: string[] };
  };
}
