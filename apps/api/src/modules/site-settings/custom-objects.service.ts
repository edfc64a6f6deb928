import { SETTINGS_MESSAGES as M } from '@sac/contract/site-settings';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { recordVersion, recordVersions } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { claimVersionOrRefuse } from '../../lib/record-version.ts';
import { writeCustomerActivity } from '../activity/activity.service.ts';
import { ownedSite } from '../customers/sites.service.ts';
import * as repo from './custom-objects.repo.ts';

/** Compiles a user's schema in the sandbox; a schema that does not compile is a 400 saying why. */
async function assertSchema(ctx: AppContext, text: string) {
  const c = await ctx.sandbox.run('checkSchema', { schema: text });
  if (c.error)
    throw new AppError('validation', `The schema is not a valid JSON Schema: ${c.error}`, [
      { Field: 'Schema', Message: c.error },
    ]);
}

/** The record whose version guards a custom object's schema; its Version sent back as If-Match. */
const schemaRecord = (appId: number, objId: string) => `site:${appId}:object:${objId}`;

const objectOut = (o: repo.ObjectRow, version: number) => ({
  Id: o.id,
  Name: o.name,
  SizeMB: o.size_mb,
  Schema: o.schema,
  CreatedDate: isoOrNull(o.created_at)!,
  ModifiedDate: isoOrNull(o.modified_at)!,
  Version: version,
});

export async function listObjects(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx.db, uid, appId);
  const rows = await repo.listObjects(ctx.db, appId);
  if (rows.length === 0) throw new AppError('customObjectsEmpty');
  const versions = await recordVersions(
    ctx.db,
    rows.map((o) => schemaRecord(appId, o.id)),
  );
  return { Data: rows.map((o) => objectOut(o, versions.get(schemaRecord(appId, o.id)) ?? 0)) };
}

export async function createObject(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  body: { Id: string; Name: string; SizeMB: number; Schema: string },
) {
  await ownedSite(ctx.db, uid, appId);
  await assertSchema(ctx, body.Schema);
  try {
    await repo.insertObject(
      ctx.db,
      appId,
      { id: body.Id, name: body.Name, sizeMb: body.SizeMB, schema: body.Schema },
      ctx.clock.now(),
    );
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('customObjectExists');
    throw e;
  }
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customobject.create', {
    appId,
    objId: body.Id,
  });
  const o = await repo.findObject(ctx.db, appId, body.Id);
  const version = await recordVersion(ctx.db, schemaRecord(appId, body.Id));
  return { Data: objectOut(o!, version), Message: M.customObjectSaved };
}

export async function deleteObject(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  objId: string,
) {
  await ownedSite(ctx.db, uid, appId);
  if (!(await repo.deleteObject(ctx.db, appId, objId)))
    throw new AppError('notFound', 'This site has no custom object with that Id.');
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customobject.delete', { appId, objId });
  return { IsPosted: true, Message: M.customObjectRemoved };
}

export async function setSchema(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  objId: string,
  schema: string,
  /** The object's Version the form was read at (If-Match). */
  expectedVersion?: number,
) {
  await ownedSite(ctx.db, uid, appId);
  await assertSchema(ctx, schema);
  const out = await ctx.db.transaction(async (tx) => {
    const o = await repo.findObject(tx, appId, objId);
    if (!o) throw new AppError('notFound', 'This site has no custom object with that Id.');
    const version = await claimVersionOrRefuse(tx, schemaRecord(appId, objId), expectedVersion);
    const written = await repo.setObjectSchema(tx, appId, objId, schema, ctx.clock.now());
    if (!written) throw new AppError('notFound', 'This site has no custom object with that Id.');
    await writeCustomerActivity(tx, ctx, caller, actor, uid, 'site.customobject.schema', { appId, objId });
    return objectOut(written, version);
  });
  return { Data: out, Message: M.schemaSet };
}

export async function validateSample(
  ctx: AppContext,
  uid: string,
  appId: number,
  schema: string,
  sample: string,
) {
  await ownedSite(ctx.db, uid, appId);
  const r = await ctx.sandbox.run('validate', { schema, sample });
  if ('schemaError' in r) return { Valid: false, Errors: [{ Path: '(schema)', Message: r.schemaError }] };
  if ('sampleError' in r) return { Valid: false, Errors: [{ Path: '(sample)', Message: r.sampleError }] };
  return { Valid: r.valid, Errors: r.errors };
}
