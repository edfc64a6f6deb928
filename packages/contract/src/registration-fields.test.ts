import { describe, expect, it } from 'vitest';
import { parseFieldRules } from './registration-fields.ts';

describe('parseFieldRules (pipe form)', () => {
  it('parses the rules identity platforms use', () => {
    expect(parseFieldRules('required|min_length[2]|valid_email')).toEqual({
      rules: [{ name: 'required' }, { name: 'min_length', arg: '2' }, { name: 'valid_email' }],
    });
    expect(parseFieldRules('')).toEqual({ rules: [] });
  });
  it('keeps a pipe inside a custom_validation pattern', () => {
    const r = parseFieldRules('custom_validation[^(a|b)$###a or b]|required');
    expect(r).toEqual({
      rules: [{ name: 'custom_validation', arg: '^(a|b)$###a or b' }, { name: 'required' }],
    });
  });
  it.each([
    ['shiny', "Unknown rule 'shiny'."],
    ['required[1]', 'The rule required takes no value.'],
    ['max_length', 'The rule max_length needs a whole number, like max_length[2].'],
    ['matches[9x]', 'The rule matches needs a field name.'],
    [
      'custom_validation[abc]',
      'custom_validation needs a pattern and a message: custom_validation[regex###message].',
    ],
    ['custom_validation[(###m]', 'The pattern of custom_validation is not a valid regular expression.'],
  ])('%s -> %s', (rules, error) => {
    expect(parseFieldRules(rules)).toEqual({ error });
  });
});
