import type { WebhookDelivery, WebhookSubscription } from '@sac/contract/webhooks';
import { useState } from 'react';
import { NextPageButton, NextPageError } from '../../../components/paged-table.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { type DeliveryState, useRedeliverWebhook, useWebhookDeliveries } from '../api/webhooks-api.ts';
import styles from './webhooks.module.css';

const STATES: readonly DeliveryState[] = ['pending', 'delivered', 'failed'];
const BADGE: Record<DeliveryState, string> = {
  pending: 'status-pending',
  delivered: 'status-approved',
  failed: 'status-rejected',
};

/**
 * A subscription's deliveries, newest first, by state if chosen, older ones a page at a time;
 * read again every few seconds while one is pending. Each shows its attempts and, opened, the
 * body sent (as text, never as markup); a delivered or failed one may be sent again unless paused.
 */
export function DeliveryLog({ subscription }: { subscription: WebhookSubscription }) {
  const t = useT('webhooks');
  const common = useT('common');
  const [state, setState] = useState<DeliveryState | ''>('');
  const { list, rows } = useWebhookDeliveries(subscription.Id, state || undefined);
  const anyPending = rows?.some((d) => d.State === 'pending') ?? false;
  return (
    <section className="card" aria-labelledby="log-heading">
      <div className="page-header">
        <div>
          <h2 id="log-heading">{t('logHeading')}</h2>
          <p className="muted">{anyPending ? t('autoRefresh') : t('logIntro')}</p>
        </div>
      </div>
      <div className={styles.toolbar}>
        <SelectField
          id="delivery-state"
          name="state"
          label={t('filterState')}
          value={state}
          options={[
            { value: '', label: t('allStates') },
            ...STATES.map((s) => ({ value: s, label: t(`delivery.${s}`) })),
          ]}
          onValueChange={(v) => setState(v as DeliveryState | '')}
        />
        <button
          type="button"
          className="button"
          aria-busy={list.isRefetching}
          onClick={() => void list.refetch()}
        >
          {t('refresh')}
        </button>
      </div>
      {list.isPending ? <Skeleton lines={4} /> : null}
      {list.isError && !rows ? (
        <p className="form-alert" role="alert">
          {errorText(list.error, common('tableFetchError'))}
        </p>
      ) : null}
      {rows && rows.length === 0 ? <p className="muted">{t('noDeliveries')}</p> : null}
      {rows && rows.length > 0 ? (
        <ul className={styles.log} aria-label={t('logHeading')}>
          {rows.map((d) => (
            <DeliveryRow key={d.Id} d={d} subscription={subscription} />
          ))}
        </ul>
      ) : null}
      <NextPageError list={list} fetchError={common('tableFetchError')} />
      <NextPageButton list={list} label={t('loadOlder')} />
    </section>
  );
}

/** The body as sent, indented when it is JSON. */
function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

function DeliveryRow({ d, subscription }: { d: WebhookDelivery; subscription: WebhookSubscription }) {
  const t = useT('webhooks');
  const redeliver = useRedeliverWebhook();
  const paused = subscription.State === 'paused';
  const last = d.Attempts.at(-1);
  return (
    <li className={styles.delivery} aria-label={`${d.EventType} ${d.EventId}`}>
      <div className={styles.deliveryHead}>
        <span className={`status-badge ${BADGE[d.State]}`}>{t(`delivery.${d.State}`)}</span>
        <span className={styles.deliveryType}>{d.EventType}</span>
        <code>{d.EventId}</code>
        <span className="muted">
          <Timestamp value={d.CreatedAt} />
        </span>
        {d.State !== 'pending' ? (
          <div className={styles.again}>
            <button
              type="button"
              className="button button-small"
              disabled={paused || redeliver.isPending}
              aria-busy={redeliver.isPending}
              aria-describedby={paused ? `paused-${d.Id}` : undefined}
              onClick={() =>
                redeliver.mutate(
                  { Id: subscription.Id, DeliveryId: d.Id },
                  { onSuccess: () => toast.success(t('sentAgain')) },
                )
              }
            >
              {t('sendAgain')}
            </button>
            {paused ? (
              <span id={`paused-${d.Id}`} className="muted">
                {t('sendAgainPaused')}
              </span>
            ) : null}
          </div>
        ) : null}
      </div>
      <div className={`muted ${styles.deliveryMeta}`}>
        {last ? (
          <>
            {t('attempts')}: {d.Attempts.length} · <AttemptText a={last} />
          </>
        ) : (
          t('noAttempts')
        )}
        {d.State === 'pending' && d.NextAttemptAt ? (
          <>
            {' · '}
            {t('nextAttempt')} <Timestamp value={d.NextAttemptAt} />
          </>
        ) : null}
        {d.RedeliveryOf !== null ? ` · ${t('redeliveryOf', { id: d.RedeliveryOf })}` : ''}
      </div>
      <details>
        <summary>{t('showPayload')}</summary>
        {d.Attempts.length > 0 ? (
          <ol className={styles.attempts}>
            {d.Attempts.map((a) => (
              <li key={a.At}>
                <Timestamp value={a.At} /> · <AttemptText a={a} />
              </li>
            ))}
          </ol>
        ) : null}
        <p className={`muted ${styles.deliveryMeta}`}>{t('payload')}</p>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long body scrolls, and keyboard users scroll it too */}
        <pre className={styles.payload} tabIndex={0}>
          {pretty(d.Payload)}
        </pre>
      </details>
    </li>
  );
}

/** One attempt: the answer's code (or no answer) after how long, and the error if any. */
function AttemptText({ a }: { a: WebhookDelivery['Attempts'][number] }) {
  const t = useT('webhooks');
  const code = a.Code === null ? t('noAnswer') : `HTTP ${a.Code}`;
  return (
    <>
      {t('attemptLine', { code, ms: a.DurationMs })}
      {a.Error ? ` · ${a.Error}` : ''}
    </>
  );
}
