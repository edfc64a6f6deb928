import { SETTINGS_MESSAGES as M } from '@sac/contract/site-settings';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { isoOrNull } from '../../lib/iso.ts';
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

const objectOut = (o: repo.ObjectRow) => ({
  Id: o.id,
  Name: o.name,
  SizeMB: o.size_mb,
  Schema: o.schema,
  CreatedDate: isoOrNull(o.created_at)!,
  ModifiedDate: isoOrNull(o.modified_at)!,
});

export async function listObjects(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx.db, uid, appId);
  const rows = await repo.listObjects(ctx.db, appId);
  if (rows.length === 0) throw new AppError('customObjectsEmpty');
  return { Data: rows.map(objectOut) };
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
  return { Data: objectOut(o!), Message: M.customObjectSaved };
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
) {
  await ownedSite(ctx.db, uid, appId);
  await assertSchema(ctx, schema);
  const o = await repo.setObjectSchema(ctx.db, appId, objId, schema, ctx.clock.now());
  if (!o) throw new AppError('notFound', 'This site has no custom object with that Id.');
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customobject.schema', { appId, objId });
  return { Data: objectOut(o), Message: M.schemaSet };
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
