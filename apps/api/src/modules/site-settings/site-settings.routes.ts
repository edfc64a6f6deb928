import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import * as appSettings from './app-settings.service.ts';
import * as domains from './custom-domains.service.ts';
import * as objects from './custom-objects.service.ts';
import * as encryption from './encryption.service.ts';
import * as fields from './registration-fields.service.ts';
import * as security from './security.service.ts';

/** A write takes the call and one input: the site of the query with the body. */
export function siteSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.customObjectList, (c) =>
    objects.listObjects(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectCreate, (c) =>
    objects.createObject(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectDelete, (c) =>
    objects.deleteObject(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectSchema, (c) =>
    objects.setSchema(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customObjectValidate, (c) =>
    objects.validateSample(ctx, c.query.uid, c.query.appId, c.body.Schema, c.body.Sample),
  );
  registerEndpoint(app, ctx, ENDPOINTS.hubDomain, async () => domains.hubDomain(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.customDomainList, (c) =>
    domains.listDomains(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customDomainsAll, (c) =>
    domains.listAllDomains(ctx, c.query, c.session.scope),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customDomainCreate, (c) =>
    domains.createDomain(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customDomainDelete, (c) =>
    domains.deleteDomain(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customDomainVerify, (c) =>
    domains.verifyDomain(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.appSettings, (c) =>
    appSettings.getAppSettings(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.updateAppSettings, (c) =>
    appSettings.updateAppSettings(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.applicationSecurity, (c) =>
    security.getSecurity(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.updateApplicationSecurity, (c) =>
    security.updateSecurity(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.passwordSettings, (c) =>
    encryption.getEncryptionSettings(ctx, c.query.uid, c.query.appId, 'password'),
  );
  registerEndpoint(app, ctx, ENDPOINTS.previousPasswordSettings, (c) =>
    encryption.getEncryptionSettings(ctx, c.query.uid, c.query.appId, 'previous-password'),
  );
  registerEndpoint(app, ctx, ENDPOINTS.securityQuestionSettings, (c) =>
    encryption.getEncryptionSettings(ctx, c.query.uid, c.query.appId, 'security-answer'),
  );
  registerEndpoint(app, ctx, ENDPOINTS.saveEncryptionSettings, (c) =>
    encryption.saveEncryptionSettings(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.encryptionPreview, (c) =>
    encryption.previewHash(ctx, c.query.uid, c.query.appId, c.body.data, c.body.Sample),
  );
  registerEndpoint(app, ctx, ENDPOINTS.activeCustomFields, (c) =>
    fields.activeFields(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customRegistrationDataList, (c) =>
    fields.dataSources(ctx, c.query.uid, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.addDataSource, (c) =>
    fields.addDataSource(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.addCustomField, (c) =>
    fields.addCustomField(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.saveDefaultFields, (c) =>
    fields.saveDefaultFields(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.integrations, (c) =>
    fields.integrations(ctx, c.query.uId, c.query.appId),
  );
}
