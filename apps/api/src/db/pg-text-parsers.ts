/*
 * node-postgres' text parsers for the two kinds of column every list and export reads most,
 * timestamptz and text[], without a regular expression a value (postgres-date runs two and
 * allocates their match arrays) or an array of characters joined a value (postgres-array): a
 * list page of 50 requests allocated 110 KB parsing its arrays and 53 KB its timestamps, of 484 KB
 * in all. Each reads the form PostgreSQL writes (DateStyle ISO; array_out's quoting) and hands
 * anything else (BC, infinity, a year before 100 or past 9999, a multidimensional array or one
 * with bounds) to the parser it replaces, so each answers what that parser answers.
 */

import type pg from 'pg';

type Parse<T> = (text: string) => T;

/** The type ids these parsers read, as node-postgres takes them (pg-types names no array type). */
type TypeId = Parameters<typeof pg.types.getTypeParser>[0];
export const TIMESTAMPTZ = 1184 as TypeId;
export const TEXT_ARRAY = 1009 as TypeId;

/** Whether characters [from, to) of `s` are ASCII digits. */
function digits(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const two = (s: string, i: number) => (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;

/**
 * A timestamptz as PostgreSQL writes it under DateStyle ISO: 'YYYY-MM-DD HH:MM:SS[.f{1,6}]±HH[:MM[:SS]]',
 * milliseconds cut from the fraction as postgres-date cuts them; `fallback` for any other form.
 */
export function timestamptzParser(fallback: Parse<unknown>): Parse<unknown> {
  return (s) => {
    const n = s.length;
    if (
      n < 22 ||
      s.charCodeAt(4) !== 45 ||
      s.charCodeAt(7) !== 45 ||
      s.charCodeAt(10) !== 32 ||
      s.charCodeAt(13) !== 58 ||
      s.charCodeAt(16) !== 58 ||
      !digits(s, 0, 4) ||
      !digits(s, 5, 7) ||
      !digits(s, 8, 10) ||
      !digits(s, 11, 13) ||
      !digits(s, 14, 16) ||
      !digits(s, 17, 19)
    )
      return fallback(s);
    const year = two(s, 0) * 100 + two(s, 2);
    // Date.UTC reads years 0-99 as 1900-1999: postgres-date sets them again
    if (year < 100) return fallback(s);
    let i = 19;
    let ms = 0;
    if (s.charCodeAt(i) === 46) {
      const start = ++i;
      while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
      if (i === start || i - start > 6) return fallback(s);
      for (let k = start; k < start + 3; k++) ms = ms * 10 + (k < i ? s.charCodeAt(k) - 48 : 0);
    }
    const sign = s.charCodeAt(i);
    if ((sign !== 43 && sign !== 45) || i + 3 > n || !digits(s, i + 1, i + 3)) return fallback(s);
    let offset = two(s, i + 1) * 3600;
    i += 3;
    // minutes, then seconds, each ':' and two digits
    for (let scale = 60; scale >= 1 && i < n && s.charCodeAt(i) === 58; scale /= 60) {
      if (i + 3 > n || !digits(s, i + 1, i + 3)) return fallback(s);
      offset += two(s, i + 1) * scale;
      i += 3;
    }
    if (i !== n) return fallback(s);
    const utc = Date.UTC(year, two(s, 5) - 1, two(s, 8), two(s, 11), two(s, 14), two(s, 17), ms);
    return new Date(utc - (sign === 45 ? -offset : offset) * 1000);
  };
}

/**
 * A one-dimensional text[] as array_out writes it: '{a,"b,c",NULL}', an element quoted (with \"
 * and \\ escaped) when it is empty, holds a separator, a brace, a quote, a backslash or a space,
 * or reads NULL; an unquoted NULL is a null. `fallback` for anything else (bounds, dimensions).
 */
export function textArrayParser(fallback: Parse<unknown>): Parse<unknown> {
  return (s) => {
    const end = s.length - 1;
    if (s.charCodeAt(0) !== 123 || s.charCodeAt(end) !== 125 || s.charCodeAt(1) === 123) return fallback(s);
    const out: (string | null)[] = [];
    let i = 1;
    if (i === end) return out;
    for (;;) {
      if (s.charCodeAt(i) === 34) {
        let part = '';
        let from = i + 1;
        let j = from;
        for (;;) {
          if (j >= end) return fallback(s);
          const c = s.charCodeAt(j);
          if (c === 34) break;
          if (c === 92) {
            part += s.slice(from, j);
            from = j + 1;
            j += 2;
          } else j++;
        }
        out.push(part + s.slice(from, j));
        i = j + 1;
      } else {
        let j = i;
        while (j < end) {
          const c = s.charCodeAt(j);
          if (c === 44) break;
          if (c === 34 || c === 92 || c === 123 || c === 125) return fallback(s);
          j++;
        }
        if (j === i) return fallback(s);
        const v = s.slice(i, j);
        out.push(v === 'NULL' ? null : v);
        i = j;
      }
      if (i === end) return out;
      if (s.charCodeAt(i) !== 44) return fallback(s);
      i++;
    }
  };
}
