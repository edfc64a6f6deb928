import { consolePaths } from '@sac/contract/console-paths';
import {
  rotateWebhookSecretBody,
  WEBHOOK_OVERLAP_HOURS_DEFAULT,
  type WebhookSubscription,
} from '@sac/contract/webhooks';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { DetailList } from '../../../components/detail-list.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useRotateWebhookSecret, useWebhookAct, useWebhooks } from '../api/webhooks-api.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { SecretDialog } from './secret-dialog.tsx';
import { WebhookFormDialog } from './webhook-form-dialog.tsx';
import { WebhookState } from './webhook-state.tsx';
import styles from './webhooks.module.css';

/**
 * /manage-superuser/webhook?id=N: one subscription's facts and acts (test, pause or resume,
 * rotate the secret, edit, delete) and its delivery log.
 */
export default function WebhookPage() {
  const t = useT('webhooks');
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const list = useWebhooks();
  const s = list.data?.Data.find((x) => x.Id === id);
  return (
    <div className="page-stack">
      <section className="card" aria-labelledby="screen-title">
        <div className="page-header">
          <div>
            <h1 id="screen-title">{t('subscription')}</h1>
            {s ? <p className={styles.url}>{s.Url}</p> : null}
          </div>
          <Link to={consolePaths.webhooks()}>{t('backToList')}</Link>
        </div>
        {list.isPending ? <Skeleton lines={4} /> : null}
        {list.isError ? (
          <p className="form-alert" role="alert">
            {errorText(list.error)}
          </p>
        ) : null}
        {list.data && !s ? (
          <p className="form-alert" role="alert">
            {t('notFound')}
          </p>
        ) : null}
        {s && list.data ? (
          <>
            <div className={styles.facts}>
              <Facts s={s} />
            </div>
            <Acts
              s={s}
              eventTypes={list.data.EventTypes}
              privateAllowed={list.data.PrivateAddressesAllowed}
            />
          </>
        ) : null}
      </section>
      {s ? <DeliveryLog subscription={s} /> : null}
    </div>
  );
}

function Facts({ s }: { s: WebhookSubscription }) {
  const t = useT('webhooks');
  return (
    <DetailList
      layout="plain"
      items={[
        { label: t('state'), value: <WebhookState s={s} /> },
        s.Description !== '' && { label: t('description'), value: s.Description },
        {
          label: t('eventTypes'),
          value: (
            <ul className={styles.types}>
              {s.EventTypes.map((e) => (
                <li key={e}>
                  <code>{e}</code>
                </li>
              ))}
            </ul>
          ),
        },
        {
          label: t('last24h'),
          value: `${t('delivered24h', { n: s.Delivered24h })}, ${t('failed24h', { n: s.Failed24h })}`,
        },
        { label: t('pending'), value: s.Pending },
        {
          label: t('lastDelivered'),
          value: s.LastDeliveredAt ? <Timestamp value={s.LastDeliveredAt} /> : t('never'),
        },
        {
          label: t('createdAt'),
          value: (
            <>
              <Timestamp value={s.CreatedAt} />
              {s.CreatedBy ? ` · ${s.CreatedBy}` : ''}
            </>
          ),
        },
        s.SecretRotatedAt !== null && {
          label: t('secretRotated'),
          value: <Timestamp value={s.SecretRotatedAt} />,
        },
        s.PreviousSecretUntil !== null &&
          Date.parse(s.PreviousSecretUntil) > Date.now() && {
            label: t('previousUntil'),
            value: <Timestamp value={s.PreviousSecretUntil} />,
          },
      ]}
    />
  );
}

type Asking = 'edit' | 'rotate' | 'delete' | undefined;

/** The buttons, and the dialog one of them opened. */
function Acts({
  s,
  eventTypes,
  privateAllowed,
}: {
  s: WebhookSubscription;
  eventTypes: readonly { Type: string; Description: string }[];
  privateAllowed: boolean;
}) {
  const t = useT('webhooks');
  const [asking, setAsking] = useState<Asking>();
  const [secret, setSecret] = useState<{ value: string; until: string | null }>();
  const test = useWebhookAct('webhookTest');
  const pause = useWebhookAct('webhookPause');
  const resume = useWebhookAct('webhookResume');
  const paused = s.State === 'paused';
  const toggle = paused ? resume : pause;
  return (
    <>
      <div className={styles.actions}>
        <button
          type="button"
          className="button"
          aria-busy={test.isPending}
          disabled={test.isPending}
          onClick={() => test.mutate(s.Id, { onSuccess: () => toast.success(t('testSent')) })}
        >
          {t('sendTest')}
        </button>
        <button
          type="button"
          className="button"
          aria-busy={toggle.isPending}
          disabled={toggle.isPending}
          onClick={() =>
            toggle.mutate(s.Id, {
              onSuccess: () => toast.success(paused ? t('resumedToast') : t('pausedToast')),
            })
          }
        >
          {paused ? t('resume') : t('pause')}
        </button>
        <button type="button" className="button" onClick={() => setAsking('rotate')}>
          {t('rotate')}
        </button>
        <button type="button" className="button" onClick={() => setAsking('edit')}>
          {t('edit')}
        </button>
        <button type="button" className="button button-danger" onClick={() => setAsking('delete')}>
          {t('delete')}
        </button>
      </div>
      {asking === 'edit' ? (
        <WebhookFormDialog
          subscription={s}
          eventTypes={eventTypes}
          privateAllowed={privateAllowed}
          onClose={() => setAsking(undefined)}
        />
      ) : null}
      {asking === 'rotate' ? (
        <RotateDialog
          id={s.Id}
          onClose={() => setAsking(undefined)}
          onRotated={(value, until) => setSecret({ value, until })}
        />
      ) : null}
      {asking === 'delete' ? <DeleteDialog s={s} onClose={() => setAsking(undefined)} /> : null}
      {secret ? (
        <SecretDialog
          secret={secret.value}
          overlapUntil={secret.until}
          onClose={() => setSecret(undefined)}
        />
      ) : null}
    </>
  );
}

/** Delete, after a confirmation; the list opens after it. */
function DeleteDialog({ s, onClose }: { s: WebhookSubscription; onClose: () => void }) {
  const t = useT('webhooks');
  const navigate = useNavigate();
  const remove = useWebhookAct('webhookDelete');
  return (
    <ConfirmDialog
      title={t('deleteTitle')}
      confirmLabel={t('delete')}
      busyLabel={t('deleting')}
      cancelLabel={t('cancel')}
      danger
      busy={remove.isPending}
      onConfirm={() =>
        remove.mutate(s.Id, {
          onSuccess: () => {
            toast.success(t('deletedToast'));
            void navigate(consolePaths.webhooks());
          },
          onSettled: onClose,
        })
      }
      onClose={onClose}
    >
      <p className={styles.url}>{s.Url}</p>
      <p>{t('deleteBody')}</p>
    </ConfirmDialog>
  );
}

/** Rotate: how long the old secret goes on signing (default 24 hours), then the new one, once. */
function RotateDialog({
  id,
  onClose,
  onRotated,
}: {
  id: number;
  onClose: () => void;
  onRotated: (secret: string, until: string | null) => void;
}) {
  const t = useT('webhooks');
  const rotate = useRotateWebhookSecret();
  const [hours, setHours] = useState(String(WEBHOOK_OVERLAP_HOURS_DEFAULT));
  const parsed = rotateWebhookSecretBody.safeParse({
    Id: id,
    OverlapHours: hours.trim() === '' ? NaN : Number(hours),
  });
  return (
    <ConfirmDialog
      title={t('rotateTitle')}
      confirmLabel={t('rotate')}
      busyLabel={t('rotating')}
      cancelLabel={t('cancel')}
      busy={rotate.isPending}
      onConfirm={() => {
        if (!parsed.success) return;
        rotate.mutate(parsed.data, {
          onSuccess: (answer) => {
            onClose();
            onRotated(answer.Secret, answer.Data.PreviousSecretUntil);
          },
        });
      }}
      onClose={onClose}
    >
      <p>{t('rotateBody')}</p>
      <FormField
        id="webhook-overlap"
        name="overlap"
        type="number"
        inputMode="numeric"
        min={0}
        max={72}
        label={t('overlapHours')}
        hint={t('overlapHint')}
        value={hours}
        error={parsed.success ? undefined : parsed.error.issues[0]?.message}
        onValueChange={setHours}
      />
    </ConfirmDialog>
  );
}
