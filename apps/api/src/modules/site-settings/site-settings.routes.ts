import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint, signedIn } from '../../lib/endpoint-route.ts';
import { answerVersioned, expectedVersionOf } from '../../lib/record-version.ts';
import * as appSettings from './app-settings.service.ts';
import * as domains from './custom-domains.service.ts';
import * as objects from './custom-objects.service.ts';
import * as encryption from './encryption.service.ts';
import * as fields from './registration-fields.service.ts';
import * as security from './security.service.ts';

export function siteSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.customObjectList, (c) =>
    objects.listObjects(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectCreate, (c) =>
    objects.createObject(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectDelete, (c) =>
    objects.deleteObject(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.objId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectSchema, (c) =>
    objects.setSchema(
      ctx,
      c,
      signedIn(c),
      c.query.uid,
      c.query.appId,
      c.body.objId,
      c.body.Schema,
      expectedVersionOf(c.request),
    ),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectValidate, (c) =>
    objects.validateSample(ctx, c.query.uid, c.query.appId, c.body.Schema, c.body.Sample),
  );
  registerEndpoint(app, ctx, ENDPOINTS.hubDomain, async () => domains.hubDomain(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.customDomainList, (c) =>
    domains.listDomains(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customDomainsAll, (c) => domains.listAllDomains(ctx, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.customDomainCreate, (c) =>
    domains.createDomain(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.domain),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customDomainDelete, (c) =>
    domains.deleteDomain(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.domain),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customDomainVerify, (c) =>
    domains.verifyDomain(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.domain),
  );
  registerEndpoint(app, ctx, ENDPOINTS.appSettings, async (c) =>
    answerVersioned(c.reply, await appSettings.getAppSettings(ctx, c.query.uid, c.query.appId)),
  );
  registerEndpoint(app, ctx, ENDPOINTS.updateAppSettings, async (c) =>
    answerVersioned(
      c.reply,
      await appSettings.updateAppSettings(
        ctx,
        c,
        signedIn(c),
        c.query.uid,
        c.query.appId,
        c.body.data,
        expectedVersionOf(c.request),
      ),
    ),
  );
  registerEndpoint(app, ctx, ENDPOINTS.applicationSecurity, async (c) =>
    answerVersioned(c.reply, await security.getSecurity(ctx, c.query.uid, c.query.appId)),
  );
  registerEndpoint(app, ctx, ENDPOINTS.updateApplicationSecurity, async (c) =>
    answerVersioned(
      c.reply,
      await security.updateSecurity(
        ctx,
        c,
        signedIn(c),
        c.query.uid,
        c.query.appId,
        c.body.data,
        expectedVersionOf(c.request),
      ),
    ),
  );
  registerEndpoint(app, ctx, ENDPOINTS.passwordSettings, async (c) =>
    answerVersioned(
      c.reply,
      await encryption.getEncryptionSettings(ctx, c.query.uid, c.query.appId, 'password'),
    ),
  );
  registerEndpoint(app, ctx, ENDPOINTS.previousPasswordSettings, async (c) =>
    answerVersioned(
      c.reply,
      await encryption.getEncryptionSettings(ctx, c.query.uid, c.query.appId, 'previous-password'),
    ),
  );
  registerEndpoint(app, ctx, ENDPOINTS.securityQuestionSettings, async (c) =>
    answerVersioned(
      c.reply,
      await encryption.getEncryptionSettings(ctx, c.query.uid, c.query.appId, 'security-answer'),
    ),
  );
  registerEndpoint(app, ctx, ENDPOINTS.saveEncryptionSettings, async (c) =>
    answerVersioned(
      c.reply,
      await encryption.saveEncryptionSettings(
        ctx,
        c,
        signedIn(c),
        c.query.uid,
        c.query.appId,
        c.body.Set,
        c.body.data,
        expectedVersionOf(c.request),
      ),
    ),
  );
  registerEndpoint(app, ctx, ENDPOINTS.encryptionPreview, (c) =>
    encryption.previewHash(ctx, c.query.uid, c.query.appId, c.body.data, c.body.Sample),
  );
  registerEndpoint(app, ctx, ENDPOINTS.activeCustomFields, async (c) =>
    answerVersioned(c.reply, await fields.activeFields(ctx, c.query.uid, c.query.appId)),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customRegistrationDataList, (c) =>
    fields.dataSources(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.addDataSource, (c) =>
    fields.addDataSource(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.addCustomField, async (c) =>
    answerVersioned(
      c.reply,
      await fields.addCustomField(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body),
    ),
  );
  registerEndpoint(app, ctx, ENDPOINTS.saveDefaultFields, async (c) =>
    answerVersioned(
      c.reply,
      await fields.saveDefaultFields(
        ctx,
        c,
        signedIn(c),
        c.query.uid,
        c.query.appId,
        c.body.Fields,
        expectedVersionOf(c.request),
      ),
    ),
  );
  registerEndpoint(app, ctx, ENDPOINTS.integrations, (c) =>
    fields.integrations(ctx, c.query.uId, c.query.appId),
  );
}
