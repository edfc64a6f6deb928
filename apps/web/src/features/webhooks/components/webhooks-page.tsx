import { consolePaths } from '@sac/contract/console-paths';
import type { WebhookSubscription } from '@sac/contract/webhooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useWebhooks } from '../api/webhooks-api.ts';
import { SecretDialog } from './secret-dialog.tsx';
import { WebhookFormDialog } from './webhook-form-dialog.tsx';
import { WebhookState } from './webhook-state.tsx';
import styles from './webhooks.module.css';

/**
 * /manage-superuser/webhooks (webhooks.manage): the subscriptions with their state and the last
 * day's deliveries; New subscription opens the form, and the new secret is shown once.
 */
export default function WebhooksPage() {
  const t = useT('webhooks');
  const common = useT('common');
  const list = useWebhooks();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | undefined>();
  const rows = list.data?.Data;
  return (
    <section className="card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('heading')}</h1>
          <p className="muted">{t('intro')}</p>
        </div>
        {list.data ? (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            {t('newSubscription')}
          </button>
        ) : null}
      </div>
      {list.isPending ? <Skeleton lines={4} /> : null}
      {list.isError ? (
        <p className="form-alert" role="alert">
          {errorText(list.error, common('tableFetchError'))}
        </p>
      ) : null}
      {rows && rows.length === 0 ? <EmptyState /> : null}
      {rows && rows.length > 0 ? (
        <DataTable
          label={t('listHeading')}
          columns={columns(t)}
          rows={rows}
          rowKey={(r) => String(r.Id)}
          isLoading={false}
          pageSize={20}
        />
      ) : null}
      {creating && list.data ? (
        <WebhookFormDialog
          eventTypes={list.data.EventTypes}
          privateAllowed={list.data.PrivateAddressesAllowed}
          onClose={() => setCreating(false)}
          onCreated={(_, s) => setSecret(s)}
        />
      ) : null}
      {secret ? <SecretDialog secret={secret} onClose={() => setSecret(undefined)} /> : null}
    </section>
  );
}

/** What webhooks are, for a console that has none yet. */
function EmptyState() {
  const t = useT('webhooks');
  return (
    <div className={styles.empty}>
      <h2>{t('emptyTitle')}</h2>
      <p>{t('emptyBody')}</p>
      <p>
        <a href="/docs/webhooks">{t('docsLink')}</a>
      </p>
    </div>
  );
}

function columns(t: ReturnType<typeof useT<'webhooks'>>): Column<WebhookSubscription>[] {
  return [
    {
      id: 'url',
      header: t('endpoint'),
      sortValue: (r) => r.Url,
      cell: (r) => (
        <>
          <div className={styles.urlCell}>
            <Link to={consolePaths.webhook({ id: r.Id })} className={styles.url}>
              {r.Url}
            </Link>
            {r.Description ? <div className="muted">{r.Description}</div> : null}
          </div>
        </>
      ),
    },
    {
      id: 'types',
      header: t('eventTypes'),
      sortValue: (r) => r.EventTypes.length,
      csv: (r) => r.EventTypes.join(' '),
      cell: (r) => (
        <details>
          <summary>{t('typesCount', { n: r.EventTypes.length })}</summary>
          <ul className={styles.types}>
            {r.EventTypes.map((e) => (
              <li key={e}>
                <code>{e}</code>
              </li>
            ))}
          </ul>
        </details>
      ),
    },
    { id: 'state', header: t('state'), sortValue: (r) => r.State, cell: (r) => <WebhookState s={r} /> },
    {
      id: 'last24h',
      header: t('last24h'),
      sortValue: (r) => r.Failed24h,
      csv: (r) => `${r.Delivered24h}/${r.Failed24h}`,
      cell: (r) => (
        <>
          <div>{t('delivered24h', { n: r.Delivered24h })}</div>
          <div className={r.Failed24h > 0 ? styles.failed : 'muted'}>
            {t('failed24h', { n: r.Failed24h })}
          </div>
        </>
      ),
    },
    { id: 'pending', header: t('pending'), sortValue: (r) => r.Pending, cell: (r) => r.Pending },
    {
      id: 'lastDelivered',
      header: t('lastDelivered'),
      sortValue: (r) => r.LastDeliveredAt,
      cell: (r) => (r.LastDeliveredAt ? <Timestamp value={r.LastDeliveredAt} /> : t('never')),
    },
  ];
}
