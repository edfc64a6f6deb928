import { SETTINGS_MESSAGES as M } from '@sac/contract/site-settings';
import type { AppContext } from '../../app-context.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { recordVersion, recordVersions } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { ownedSite, type SiteInput, siteWrite } from '../customers/sites.service.ts';
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

const noSuchObject = () => new AppError('notFound', 'This site has no custom object with that Id.');

export async function createObject(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & { Id: string; Name: string; SizeMB: number; Schema: string },
) {
  await assertSchema(ctx, input.Schema);
  try {
    const out = await siteWrite(ctx, call, input, {
      action: 'site.customobject.create',
      change: async (tx) => {
        const fields = { id: input.Id, name: input.Name, sizeMb: input.SizeMB, schema: input.Schema };
        await repo.insertObject(tx, input.appId, fields, ctx.clock.now());
        const o = (await repo.findObject(tx, input.appId, input.Id))!;
        return objectOut(o, await recordVersion(tx, schemaRecord(input.appId, input.Id)));
      },
      details: () => ({ objId: input.Id }),
    });
    return { Data: out, Message: M.customObjectSaved };
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('customObjectExists');
    throw e;
  }
}

export async function deleteObject(ctx: AppContext, call: StaffCall, input: SiteInput & { objId: string }) {
  await siteWrite(ctx, call, input, {
    action: 'site.customobject.delete',
    change: async (tx) => {
      if (!(await repo.deleteObject(tx, input.appId, input.objId))) throw noSuchObject();
    },
    details: () => ({ objId: input.objId }),
  });
  return { IsPosted: true, Message: M.customObjectRemoved };
}

/** A custom object's schema, guarded by the object's Version (If-Match). */
export async function setSchema(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & { objId: string; Schema: string },
) {
  await assertSchema(ctx, input.Schema);
  const out = await siteWrite(ctx, call, input, {
    action: 'site.customobject.schema',
    record: schemaRecord(input.appId, input.objId),
    check: async (tx) => {
      if (!(await repo.findObject(tx, input.appId, input.objId))) throw noSuchObject();
    },
    change: async (tx, _site, version) => {
      const written = await repo.setObjectSchema(tx, input.appId, input.objId, input.Schema, ctx.clock.now());
      if (!written) throw noSuchObject();
      return objectOut(written, version!);
    },
    details: () => ({ objId: input.objId }),
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
