import { HEADERS } from '@sac/contract/constants';
import { CUSTOMER_EXPORTS_AT_ONCE, SEARCH_MESSAGES } from '@sac/contract/customers';
import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import { exportLimiter } from '../../lib/export-limiter.ts';
import * as dashboard from '../dashboard/dashboard.service.ts';
import { exportSearch } from './customer-export.service.ts';
import * as writes from './customer-writes.service.ts';
import * as customers from './customers.service.ts';
import { setSiteStatus } from './site-status.service.ts';

export function customerRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.searchCustomer, (c) =>
    customers.search(ctx, c.query, c.session.scope),
  );
  const exports = exportLimiter(CUSTOMER_EXPORTS_AT_ONCE, SEARCH_MESSAGES.exportBusy);
  registerEndpoint(app, ctx, ENDPOINTS.searchCustomerExport, async (c) => {
    const file = await exportSearch(ctx, c, c.session, c.query, exports.take());
    c.reply
      .header(HEADERS.exportRows, String(file.rows))
      .header('Content-Disposition', `attachment; filename="${file.filename}"`)
      .type('text/csv; charset=utf-8');
    return file.body as never;
  });
  registerEndpoint(app, ctx, ENDPOINTS.customerProfile, async (c) => {
    const profile = await customers.versionedProfile(ctx, c.query.uid);
    // The dashboard's "recently viewed customers": the customer view opens with this call. Kept
    // in memory and written behind in batches, so this read commits nothing.
    dashboard.recordCustomerView(ctx, c.session, c.query.uid);
    return profile;
  });
  registerEndpoint(app, ctx, ENDPOINTS.userProfile, (c) =>
    customers.account(ctx, c.query.uid, c.session.scope),
  );
  registerEndpoint(app, ctx, ENDPOINTS.loginSessions, (c) => customers.loginSessions(ctx, c.query.uid));
  registerEndpoint(app, ctx, ENDPOINTS.activityLogs, (c) =>
    customers.activity(ctx, c.query.uid, c.query.cursor, c.session.scope),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customerApps, (c) =>
    customers.apps(ctx, c.query.uid, 'owned', c.session.scope),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customerAllApps, (c) =>
    customers.apps(ctx, c.query.uid, 'all', c.session.scope),
  );
  registerEndpoint(app, ctx, ENDPOINTS.sharedApps, (c) =>
    customers.apps(ctx, c.query.uid, 'shared', c.session.scope),
  );
  registerEndpoint(app, ctx, ENDPOINTS.appById, (c) => customers.appById(ctx, c.query.uId, c.query.appId));
  registerEndpoint(app, ctx, ENDPOINTS.appInfoById, (c) =>
    customers.appInfoById(ctx, c.query.uId, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.features, () => customers.features(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.siteDataCenter, (c) =>
    customers.siteDataCenter(ctx, c.query.userId, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.siteFeature, (c) =>
    customers.siteFeatures(ctx, c.query.userId, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.siteBasicSettings, (c) =>
    customers.siteBasicSettings(ctx, c.query.uID, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customerRoles, () => customers.customerRoles(ctx));

  registerEndpoint(app, ctx, ENDPOINTS.createCustomer, (c) => writes.createCustomer(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.updateCustomerProfile, (c) =>
    writes.updateProfile(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.setCustomerPassword, (c) =>
    writes.setPassword(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.verifyEmail, (c) => writes.verifyEmail(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.addSite, (c) => writes.addSite(ctx, c, { ...c.query, ...c.body }));
  registerEndpoint(app, ctx, ENDPOINTS.updateSiteBasicSettings, (c) =>
    writes.updateBasicSettings(ctx, c, { uid: c.query.uID, appId: c.query.appId, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.updateSiteFeatures, (c) =>
    writes.updateFeatures(ctx, c, { uid: c.query.userId, appId: c.query.appId, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.updateSiteDataCenter, (c) =>
    writes.updateDataCenter(ctx, c, { uid: c.query.userId, appId: c.query.appId, body: c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.rotateSiteSecret, (c) =>
    writes.rotateSiteSecret(ctx, c, { ...c.query, ...c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.setSiteStatus, (c) =>
    setSiteStatus(ctx, c, { uid: c.query.uId, appId: c.query.appId, ...c.body }),
  );
}
