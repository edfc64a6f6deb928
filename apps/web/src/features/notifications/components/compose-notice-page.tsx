import { consolePaths } from '@sac/contract/console-paths';
import {
  createNoticeBody,
  NOTICE_AUDIENCES,
  NOTICE_KINDS,
  NOTICE_TEXT_MAX,
  type NoticeAudience,
  noticeAudience,
} from '@sac/contract/notices';
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { RadioGroup } from '../../../components/radio-group.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { toast } from '../../../lib/toast-store.ts';
import {
  type PickedSite,
  useAudienceOptions,
  useCreateNotice,
  useRecipientCount,
} from '../api/notices-api.ts';
import styles from './compose-notice-page.module.css';
import { SitePicker } from './site-picker.tsx';

interface Values {
  Kind: string;
  Subject: string;
  Text: string;
  AudienceType: string;
  Plans: string[];
  DataCenters: string[];
  /** The chosen sites (SitePicker), sent as the audience's AppIds. */
  AppIds: number[];
  When: string;
  /** A datetime-local value, in the zone the viewer reads times in. */
  SendAt: string;
}
const EMPTY: Values = {
  Kind: 'maintenance',
  Subject: '',
  Text: '',
  AudienceType: 'all',
  Plans: [],
  DataCenters: [],
  AppIds: [],
  When: 'now',
  SendAt: '',
};

/** The audience the values name, as the contract takes it. */
function audienceOf(v: Values): NoticeAudience {
  switch (v.AudienceType) {
    case 'plan':
      return { Type: 'plan', Plans: v.Plans as NoticeAudience['Plans'] };
    case 'data-center':
      return { Type: 'data-center', DataCenters: v.DataCenters };
    case 'sites':
      return { Type: 'sites', AppIds: v.AppIds };
    default:
      return { Type: 'all' };
  }
}

/** A datetime-local value read in `zone` ('UTC' or the browser's own), as an instant. */
function instantOf(local: string, zone: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local)) return undefined;
  const d = new Date(zone === 'UTC' ? `${local}:00Z` : local);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function composeSchema(zone: string, phrases: { sendAtRequired: string; sendAtPast: string }) {
  const body = createNoticeBody.shape;
  return z
    .object({
      Kind: z.enum(NOTICE_KINDS),
      Subject: body.Subject,
      Text: body.Text,
      AudienceType: z.enum(NOTICE_AUDIENCES),
      Plans: z.array(z.string()),
      DataCenters: z.array(z.string()),
      AppIds: z.array(z.number()),
      When: z.enum(['now', 'later']),
      SendAt: z.string(),
    })
    .superRefine((v, ctx) => {
      const a = noticeAudience.safeParse(audienceOf(v as Values));
      if (!a.success)
        for (const issue of a.error.issues) {
          const field = String(issue.path[0] ?? 'AudienceType');
          ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
        }
      if (v.When === 'later') {
        const at = instantOf(v.SendAt, zone);
        if (!at) ctx.addIssue({ code: 'custom', path: ['SendAt'], message: phrases.sendAtRequired });
        else if (at.getTime() <= Date.now())
          ctx.addIssue({ code: 'custom', path: ['SendAt'], message: phrases.sendAtPast });
      }
    })
    .transform((v) => ({
      Kind: v.Kind,
      Subject: v.Subject,
      Text: v.Text,
      Audience: audienceOf(v as Values),
      SendAt: v.When === 'later' ? instantOf(v.SendAt, zone)!.toISOString() : null,
    }));
}

/** The names of the sites chosen in this form, for their chips (the form holds their AppIds). */
interface SiteNames {
  sites: ReadonlyMap<number, PickedSite>;
  remember: (site: PickedSite) => void;
}
function useSiteNames(): SiteNames {
  const [sites, setSites] = useState<ReadonlyMap<number, PickedSite>>(new Map());
  const remember = useCallback((site: PickedSite) => setSites((m) => new Map(m).set(site.AppId, site)), []);
  return { sites, remember };
}

/** The value changes settle for this long before the recipients are counted again. */
const COUNT_DELAY_MS = 300;
function useSettled<T>(value: T): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the value
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), COUNT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return settled;
}

type ComposeForm = ReturnType<typeof useContractForm<Values, z.output<ReturnType<typeof composeSchema>>>>;

/** The form, checked by the contract's schema with the viewer's time zone for a later send. */
function useComposeForm(zone: string) {
  const t = useT('notifications');
  const schema = useMemo(
    () =>
      composeSchema(zone, {
        sendAtRequired: t('sendAtRequired'),
        sendAtPast: t('sendAtPast'),
      }),
    [zone, t],
  );
  return useContractForm(schema, { initial: EMPTY, idPrefix: 'notice' });
}

/** The live count of recipients of the audience as it reads once the changes settle. */
function useRecipients(form: ComposeForm) {
  const audienceErrors = ['Plans', 'DataCenters', 'AppIds'].some((f) => form.errors[f as keyof Values]);
  const wanted = audienceErrors ? undefined : audienceOf(form.values);
  const audience = useSettled(wanted);
  const count = useRecipientCount(audience);
  // Until the count answers for the audience as it now reads, the figure shown is not its own.
  const counting = JSON.stringify(wanted) !== JSON.stringify(audience) || count.isPlaceholderData;
  const reachable = !counting && count.data !== undefined && !count.data.OverLimit && count.data.Count > 0;
  return { wanted, audience, count, counting, reachable };
}

/** The chosen audience's own field: the plans, the data centers, or the sites' App Ids. */
function AudienceFields({
  form,
  options,
  named,
}: {
  form: ComposeForm;
  options: ReturnType<typeof useAudienceOptions>;
  named: SiteNames;
}) {
  const t = useT('notifications');
  const v = form.values;
  if (v.AudienceType === 'sites') {
    return (
      <SitePicker
        value={v.AppIds}
        named={named.sites}
        error={form.shown('AppIds')}
        onChange={(ids, site) => {
          if (site) named.remember(site);
          form.set('AppIds', ids);
        }}
        onBlur={() => form.touch('AppIds')}
      />
    );
  }
  if (v.AudienceType !== 'plan' && v.AudienceType !== 'data-center') return null;
  if (options.isPending) return <Skeleton lines={2} />;
  if (options.isError) {
    return (
      <p className="form-alert" role="alert">
        {errorText(options.error, t('optionsFailed'))}
      </p>
    );
  }
  if (v.AudienceType === 'plan') {
    return (
      <CheckboxGroup
        legend={t('plans')}
        name="Plans"
        options={options.data.Plans.map((p) => ({ value: p, label: p }))}
        value={v.Plans}
        error={form.shown('Plans')}
        onChange={(next) => form.set('Plans', next)}
        onBlur={() => form.touch('Plans')}
      />
    );
  }
  return (
    <CheckboxGroup
      legend={t('dataCenters')}
      name="DataCenters"
      options={options.data.DataCenters.map((d) => ({ value: d.Code, label: `${d.Name} (${d.Code})` }))}
      value={v.DataCenters}
      error={form.shown('DataCenters')}
      onChange={(next) => form.set('DataCenters', next)}
      onBlur={() => form.touch('DataCenters')}
    />
  );
}

const EMPTY_AUDIENCE_HINT: Record<
  string,
  'recipientsPickPlan' | 'recipientsPickDataCenter' | 'recipientsPickSites'
> = {
  plan: 'recipientsPickPlan',
  'data-center': 'recipientsPickDataCenter',
  sites: 'recipientsPickSites',
};

/** How many the notice reaches, or why it reaches none (counting, failed, over the limit, none). */
function RecipientCount({
  recipients,
  type,
}: {
  recipients: ReturnType<typeof useRecipients>;
  type: string;
}) {
  const t = useT('notifications');
  const { audience, count, counting, wanted } = recipients;
  // An audience with nothing chosen yet says what it needs, instead of the line vanishing.
  if (!wanted) return <span className="muted">{t(EMPTY_AUDIENCE_HINT[type] ?? 'recipientsPickSites')}</span>;
  if (!audience) return <span className="muted">{t('recipientsCounting')}</span>;
  if (count.isError) return <span className="form-alert">{errorText(count.error)}</span>;
  if (!count.data || counting) return <span className="muted">{t('recipientsCounting')}</span>;
  if (count.data.OverLimit)
    return <span className="form-alert">{t('recipientsOver', { limit: count.data.Limit })}</span>;
  if (count.data.Count === 0) return <span className="form-alert">{t('recipientsNone')}</span>;
  return <strong>{t('recipientsCount', { count: count.data.Count })}</strong>;
}

/** Kind, subject and text. */
function MessageFields({ form }: { form: ComposeForm }) {
  const t = useT('notifications');
  return (
    <>
      <RadioGroup
        legend={t('kind')}
        name="Kind"
        options={NOTICE_KINDS.map((k) => ({ value: k, label: t(`kind_${k}`), hint: t(`kindHint_${k}`) }))}
        value={form.values.Kind}
        onChange={(k) => form.set('Kind', k)}
      />
      <FormField {...form.field('Subject')} label={t('subject')} autoComplete="off" required />
      <TextAreaField
        {...form.field('Text')}
        label={t('text')}
        hint={t('textHint', { max: NOTICE_TEXT_MAX.toLocaleString('en-US') })}
        rows={8}
        required
      />
    </>
  );
}

/** Who the notice goes to, with the live count of recipients. */
function AudienceChoice({
  form,
  options,
  recipients,
  named,
}: {
  form: ComposeForm;
  options: ReturnType<typeof useAudienceOptions>;
  recipients: ReturnType<typeof useRecipients>;
  named: SiteNames;
}) {
  const t = useT('notifications');
  return (
    <>
      <RadioGroup
        legend={t('audience')}
        name="AudienceType"
        options={[
          { value: 'all', label: t('audience_all') },
          { value: 'plan', label: t('audience_plan') },
          { value: 'data-center', label: t('audience_dataCenter') },
          { value: 'sites', label: t('audience_sites') },
        ]}
        value={form.values.AudienceType}
        onChange={(a) => form.set('AudienceType', a)}
        renderChosen={() => <AudienceFields form={form} options={options} named={named} />}
      />
      <p className={styles.noticeRecipients} aria-live="polite">
        <RecipientCount recipients={recipients} type={form.values.AudienceType} />
      </p>
    </>
  );
}

/** When: now, or at a time in the viewer's time zone. */
function ScheduleChoice({ form, zone }: { form: ComposeForm; zone: string }) {
  const t = useT('notifications');
  return (
    <RadioGroup
      legend={t('schedule')}
      name="When"
      options={[
        { value: 'now', label: t('sendNow') },
        { value: 'later', label: t('sendLater') },
      ]}
      value={form.values.When}
      onChange={(w) => form.set('When', w)}
      renderChosen={(w) =>
        w === 'later' ? (
          <FormField {...form.field('SendAt')} type="datetime-local" label={t('sendAt', { zone })} required />
        ) : null
      }
    />
  );
}

/**
 * /manage-notifications/compose: kind, subject, text, audience (all customers, plans, data centers
 * or chosen sites) with the live count of recipients, and when (now, after a confirmation naming
 * the count, or at a time in the viewer's time zone).
 */
export default function ComposeNoticePage() {
  const t = useT('notifications');
  const common = useT('common');
  const zone = useTimeZone();
  const navigate = useNavigate();
  const options = useAudienceOptions();
  const create = useCreateNotice();
  const [confirming, setConfirming] = useState(false);
  const form = useComposeForm(zone);
  const v = form.values;
  const recipients = useRecipients(form);
  const named = useSiteNames();

  const send = (data: NonNullable<typeof form.data>) =>
    create.mutate(data, {
      onSuccess: (n) => {
        setConfirming(false);
        toast.success(data.SendAt ? t('scheduled') : t('sent'));
        form.leave(() => navigate(consolePaths.notice({ id: n.Id })));
      },
      onError: (e) => {
        setConfirming(false);
        form.serverFailed(e);
      },
    });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || create.isPending) return;
    if (data.SendAt === null) setConfirming(true);
    else send(data);
  };

  return (
    <section className="card form-card" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('composeHeading')}</h1>
      <p className="muted">{t('composeIntro')}</p>
      <form onSubmit={onSubmit} noValidate>
        <MessageFields form={form} />
        <AudienceChoice form={form} options={options} recipients={recipients} named={named} />
        <ScheduleChoice form={form} zone={zone} />
        {form.formError ? (
          <p className="form-alert" role="alert">
            {form.formError}
          </p>
        ) : null}
        <div className="form-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={!form.valid || !recipients.reachable || create.isPending}
            aria-busy={create.isPending}
          >
            {create.isPending ? t('submitting') : v.When === 'later' ? t('submitLater') : t('submitNow')}
          </button>
          <Link to={consolePaths.notifications()} className="button">
            {t('cancelCompose')}
          </Link>
        </div>
      </form>
      {confirming && form.data ? (
        <ConfirmDialog
          title={t('confirmSendTitle')}
          confirmLabel={t('confirmSend')}
          busyLabel={t('submitting')}
          cancelLabel={common('cancel')}
          busy={create.isPending}
          onConfirm={() => form.data && send(form.data)}
          onClose={() => setConfirming(false)}
        >
          <p>{t('confirmSendBody', { count: recipients.count.data?.Count ?? 0 })}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
