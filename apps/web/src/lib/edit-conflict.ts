import { ERRORS } from '@sac/contract/errors';
import { useState } from 'react';
import { ApiError } from './api-client.ts';

/** A stored state of a record and its version (the ETag, or a row's Version as a tag). */
export interface Stored<T> {
  data: T;
  version: string | undefined;
}

/** True for the answer to a save from a stale read (412, ErrorCode 930). */
export const isStaleWrite = (error: unknown): boolean =>
  error instanceof ApiError && error.code === ERRORS.conflict.code;

/**
 * The optimistic-concurrency state of one edit form: the stored state it was filled from, whose
 * version its saves name in If-Match, and, once a save is refused because someone saved
 * meanwhile, what they stored. What the user typed stays in the form; they load their values or
 * save over them, knowingly.
 */
export function useEditConflict<T>(filledFrom: Stored<T>, readLatest: () => Promise<Stored<T>>) {
  const [base, setBase] = useState(filledFrom);
  const [theirs, setTheirs] = useState<Stored<T>>();
  return {
    /** The stored state the form was filled from (what changed meanwhile is measured from it). */
    filledFrom: base.data,
    /** The version to send as If-Match with the next save. */
    version: base.version,
    /** What another editor stored, after a stale save; undefined otherwise. */
    theirs,
    /** A save went through: the next save from this form is from what it stored. */
    saved(stored: Stored<T>) {
      setBase(stored);
      setTheirs(undefined);
    },
    /** When the save was refused as stale, reads what is stored now and answers true. */
    async refused(error: unknown): Promise<boolean> {
      if (!isStaleWrite(error)) return false;
      setTheirs(await readLatest());
      return true;
    },
    /** Their values, for the form to take (what was typed is dropped); the next save is from them. */
    loadTheirs(): T | undefined {
      if (!theirs) return undefined;
      setBase(theirs);
      setTheirs(undefined);
      return theirs.data;
    },
    /** The version to save with over theirs, knowingly. */
    overwrite(): string | undefined {
      if (!theirs) return base.version;
      setBase(theirs);
      setTheirs(undefined);
      return theirs.version;
    },
  };
}
