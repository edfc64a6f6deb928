import { ERRORS } from '@sac/contract/errors';
import { createWebhookBody, type WebhookSubscription } from '@sac/contract/webhooks';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useSaveWebhook } from '../api/webhooks-api.ts';
import { EventTypePicker } from './event-type-picker.tsx';

interface WebhookFormValues {
  Url: string;
  Description: string;
  EventTypes: string[];
}

const valuesOf = (s: WebhookSubscription | undefined): WebhookFormValues => ({
  Url: s?.Url ?? '',
  Description: s?.Description ?? '',
  EventTypes: s?.EventTypes ?? [],
});

/**
 * A subscription's form: endpoint URL (with whether private addresses are allowed), description,
 * event types by group. A new one answers its secret, which `onCreated` shows once; the server's
 * field errors (an address refused) show on their fields.
 */
export function WebhookFormDialog({
  subscription,
  eventTypes,
  privateAllowed,
  onClose,
  onCreated,
}: {
  /** The subscription to edit; none to make a new one. */
  subscription?: WebhookSubscription;
  eventTypes: readonly { Type: string; Description: string }[];
  privateAllowed: boolean;
  onClose: () => void;
  onCreated?: (made: WebhookSubscription, secret: string) => void;
}) {
  const t = useT('webhooks');
  const save = useSaveWebhook();
  const form = useContractForm(createWebhookBody, { initial: valuesOf(subscription), idPrefix: 'webhook' });
  const [failure, setFailure] = useState<string | undefined>();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || save.isPending) return;
    setFailure(undefined);
    save.mutate(
      { body: data, id: subscription?.Id, version: subscription?.Version },
      {
        onSuccess: (answer) => {
          toast.success(subscription ? t('saved') : t('created'));
          form.leave(() => {
            onClose();
            if (answer.Secret) onCreated?.(answer.Data, answer.Secret);
          });
        },
        onError: (error) => {
          const shown = form.serverFailed(error, { [ERRORS.webhookAddress.code]: 'Url' });
          if (Object.keys(shown).length === 0) setFailure(errorText(error));
        },
      },
    );
  };

  return (
    <Dialog
      title={subscription ? t('editTitle') : t('newTitle')}
      onClose={onClose}
      busy={save.isPending}
      wide
    >
      <form onSubmit={onSubmit} noValidate>
        {failure ? (
          <p className="form-alert" role="alert">
            {failure}
          </p>
        ) : null}
        <FormField
          {...form.field('Url')}
          type="url"
          inputMode="url"
          label={t('url')}
          hint={`${t('urlHint')} ${privateAllowed ? t('urlPrivateAllowed') : t('urlPrivateRefused')}`}
          autoComplete="off"
          required
        />
        <FormField {...form.field('Description')} label={t('description')} hint={t('descriptionHint')} />
        <EventTypePicker
          types={eventTypes}
          value={form.values.EventTypes}
          error={form.shown('EventTypes')}
          onChange={(next) => form.set('EventTypes', next)}
          onBlur={() => form.touch('EventTypes')}
        />
        <div className="form-actions dialog-actions">
          <button type="submit" className="button button-primary" aria-busy={save.isPending}>
            {save.isPending ? t('saving') : subscription ? t('save') : t('create')}
          </button>
          <button type="button" className="button" disabled={save.isPending} onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
