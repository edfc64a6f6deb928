import { act, renderHook } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from './api-client.ts';
import { useContractForm } from './form.ts';

const schema = z.object({
  email: z.string().trim().email('Enter a valid email'),
  name: z.string().trim().min(1, 'Name is required'),
});
const EMPTY = { email: '', name: '' };

describe('useContractForm', () => {
  it('shows a field error once the field is changed or left, not before', () => {
    const { result } = renderHook(() => useContractForm(schema, { initial: EMPTY }));
    expect(result.current.valid).toBe(false);
    expect(result.current.shown('email')).toBeUndefined();
    act(() => result.current.set('email', 'ada@'));
    expect(result.current.shown('email')).toBe('Enter a valid email');
    expect(result.current.shown('name')).toBeUndefined();
    act(() => result.current.touch('name'));
    expect(result.current.shown('name')).toBe('Name is required');
  });

  it("in 'submit' mode shows nothing until the first submit, then validates live", () => {
    const { result } = renderHook(() => useContractForm(schema, { initial: EMPTY, showErrors: 'submit' }));
    act(() => result.current.set('email', 'ada@'));
    act(() => result.current.touch('email'));
    expect(result.current.shown('email')).toBeUndefined();
    let data: unknown;
    act(() => {
      data = result.current.submit();
    });
    expect(data).toBeUndefined();
    expect(result.current.shown('email')).toBe('Enter a valid email');
    act(() => result.current.set('email', 'ada@example.com'));
    expect(result.current.shown('email')).toBeUndefined();
  });

  it('submit returns the parsed (trimmed) data', () => {
    const { result } = renderHook(() => useContractForm(schema, { initial: EMPTY }));
    act(() => result.current.patch({ email: ' ada@example.com ', name: ' Ada ' }));
    let data: unknown;
    act(() => {
      data = result.current.submit();
    });
    expect(data).toEqual({ email: 'ada@example.com', name: 'Ada' });
  });

  it("shows the server's field errors, and a code's text on its field, until that field changes", () => {
    const { result } = renderHook(() =>
      useContractForm(schema, { initial: { email: 'a@b.co', name: 'Ada' } }),
    );
    const failure = new ApiError(400, {
      ErrorCode: 940,
      Description: 'A customer with this email already exists.',
      FieldErrors: [{ Field: 'data.name', Message: 'Name is taken' }],
    });
    act(() => {
      result.current.serverFailed(failure, { 940: 'email' });
    });
    expect(result.current.shown('name')).toBe('Name is taken');
    expect(result.current.shown('email')).toBe('A customer with this email already exists.');
    act(() => result.current.set('name', 'Ada L'));
    expect(result.current.shown('name')).toBeUndefined();
    expect(result.current.shown('email')).toBe('A customer with this email already exists.');
  });

  it('is dirty when values differ from the last loaded or saved ones', () => {
    const { result } = renderHook(() => useContractForm(schema, { initial: EMPTY }));
    expect(result.current.dirty).toBe(false);
    act(() => result.current.set('name', 'Ada'));
    expect(result.current.dirty).toBe(true);
    act(() => result.current.set('name', ''));
    expect(result.current.dirty).toBe(false);
    act(() => result.current.set('name', 'Ada'));
    act(() => result.current.reset({ email: '', name: 'Ada' }));
    expect(result.current.dirty).toBe(false);
  });

  it('patch changes several fields at once', () => {
    const { result } = renderHook(() => useContractForm(schema, { initial: EMPTY }));
    act(() => result.current.patch({ email: 'a@b.co', name: 'Ada' }));
    expect(result.current.values).toEqual({ email: 'a@b.co', name: 'Ada' });
    expect(result.current.valid).toBe(true);
  });

  it('works on values a parent holds (a step of a multi-step form)', () => {
    const { result } = renderHook(() => {
      const [values, setValues] = useState(EMPTY);
      return { values, form: useContractForm(schema, { values, onChange: setValues }) };
    });
    act(() => result.current.form.set('name', 'Ada'));
    expect(result.current.values).toEqual({ email: '', name: 'Ada' });
    expect(result.current.form.values.name).toBe('Ada');
  });

  it('names an error about the whole form after submit', () => {
    const oneOf = z
      .object({ a: z.string(), b: z.string() })
      .refine((v) => v.a !== '' || v.b !== '', { message: 'Fill in one field' });
    const { result } = renderHook(() => useContractForm(oneOf, { initial: { a: '', b: '' } }));
    expect(result.current.formError).toBeUndefined();
    act(() => {
      result.current.submit();
    });
    expect(result.current.formError).toBe('Fill in one field');
  });

  it('gives text controls their id, name, value and error', () => {
    const { result } = renderHook(() => useContractForm(schema, { initial: EMPTY, idPrefix: 'profile' }));
    act(() => result.current.field('email').onValueChange('x'));
    const props = result.current.field('email');
    expect(props).toMatchObject({
      id: 'profile-email',
      name: 'email',
      value: 'x',
      error: 'Enter a valid email',
    });
  });
});
