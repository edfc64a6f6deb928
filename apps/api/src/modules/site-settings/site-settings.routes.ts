import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint, signedIn } from '../../lib/endpoint-route.ts';
import * as fields from './registration-fields.service.ts';
import * as settings from './site-settings.service.ts';

export function siteSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.customObjectList, (c) =>
    settings.listObjects(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectCreate, (c) =>
    settings.createObject(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectDelete, (c) =>
    settings.deleteObject(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.objId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectSchema, (c) =>
    settings.setSchema(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.objId, c.body.Schema),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectValidate, (c) =>
    settings.validateSample(ctx, c.query.uid, c.query.appId, c.body.Schema, c.body.Sample),
  );
  registerEndpoint(app, ctx, ENDPOINTS.hubDomain, async () => settings.hubDomain(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.customDomainList, (c) =>
    settings.listDomains(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customDomainCreate, (c) =>
    settings.createDomain(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.domain),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customDomainDelete, (c) =>
    settings.deleteDomain(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.domain),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customDomainVerify, (c) =>
    settings.verifyDomain(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.domain),
  );
  registerEndpoint(app, ctx, ENDPOINTS.appSettings, (c) =>
    settings.getAppSettings(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.updateAppSettings, (c) =>
    settings.updateAppSettings(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.data),
  );
  registerEndpoint(app, ctx, ENDPOINTS.applicationSecurity, (c) =>
    settings.getSecurity(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.updateApplicationSecurity, (c) =>
    settings.updateSecurity(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.data),
  );
  registerEndpoint(app, ctx, ENDPOINTS.passwordSettings, (c) =>
    settings.getEncryptionSettings(ctx, c.query.uid, c.query.appId, 'password'),
  );
  registerEndpoint(app, ctx, ENDPOINTS.previousPasswordSettings, (c) =>
    settings.getEncryptionSettings(ctx, c.query.uid, c.query.appId, 'previous-password'),
  );
  registerEndpoint(app, ctx, ENDPOINTS.securityQuestionSettings, (c) =>
    settings.getEncryptionSettings(ctx, c.query.uid, c.query.appId, 'security-answer'),
  );
  registerEndpoint(app, ctx, ENDPOINTS.saveEncryptionSettings, (c) =>
    settings.saveEncryptionSettings(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.Set, c.body.data),
  );
  registerEndpoint(app, ctx, ENDPOINTS.encryptionPreview, (c) =>
    settings.previewHash(ctx, c.query.uid, c.query.appId, c.body.data, c.body.Sample),
  );
  registerEndpoint(app, ctx, ENDPOINTS.activeCustomFields, (c) =>
    fields.activeFields(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customRegistrationDataList, (c) =>
    fields.dataSources(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.addDataSource, (c) =>
    fields.addDataSource(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.addCustomField, (c) =>
    fields.addCustomField(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.saveDefaultFields, (c) =>
    fields.saveDefaultFields(ctx, c, signedIn(c), c.query.uid, c.query.appId, c.body.Fields),
  );
  registerEndpoint(app, ctx, ENDPOINTS.integrations, (c) =>
    fields.integrations(ctx, c.query.uId, c.query.appId),
  );
}
