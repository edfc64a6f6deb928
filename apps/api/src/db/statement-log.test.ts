import { describe, expect, it } from 'vitest';
import { statementKind } from './statement-log.ts';

describe('statementKind', () => {
  it.each([
    ['SELECT 1', 'read'],
    ['  -- a comment\n  select * from customers', 'read'],
    ['/* hint */ (SELECT 1) UNION (SELECT 2)', 'read'],
    ['WITH x AS (SELECT 1) SELECT * FROM x', 'read'],
    ['SELECT id FROM staff WHERE uid = $1 FOR UPDATE', 'read'],
    ['WITH x AS (SELECT id FROM t FOR UPDATE SKIP LOCKED) SELECT * FROM x', 'read'],
    ['SHOW server_version', 'read'],
    ['INSERT INTO t VALUES (1)', 'write'],
    ['UPDATE staff SET failed_logins = 0', 'write'],
    ['DELETE FROM t', 'write'],
    ['MERGE INTO t USING s ON true WHEN MATCHED THEN DO NOTHING', 'write'],
    ['WITH up AS (INSERT INTO t SELECT 1 RETURNING 1) DELETE FROM t', 'write'],
    ['WITH x AS (SELECT 1) UPDATE staff s SET a = 1 FROM x', 'write'],
    ['WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x', 'write'],
    ['CREATE TABLE t (a int)', 'write'],
    ['LOCK TABLE t', 'write'],
    ['SET synchronize_seqscans = off', 'other'],
    ['LISTEN sac_auth_changed', 'other'],
  ])('%s is a %s', (sql, kind) => {
    expect(statementKind(sql)).toBe(kind);
  });
});
