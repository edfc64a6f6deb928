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
  pbkdf2: {
    input: {
      material: Uint8Array;
      salt: Uint8Array;
      iterations: number;
      keylen: number;
      digest: 'sha256' | 'sha512';
    };
    output: { key: Uint8Array };
  };
  match: {
    input: { pattern: string; values: string[] };
    output: { error: string } | { unmatched: string[] };
  };
}
