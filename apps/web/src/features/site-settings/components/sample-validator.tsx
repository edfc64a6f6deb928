import { validateCustomObjectBody } from '@sac/contract/site-settings';
import { useState } from 'react';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { validate } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useValidateSample } from '../api/custom-objects-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import registrationFieldsSectionStyles from './registration-fields-section.module.css';
import styles from './sample-validator.module.css';

type Result = { Valid: boolean; Errors: { Path: string; Message: string }[] } | { failure: string };

/**
 * 'Validate sample': a sample object (JSON) checked against the schema being edited
 * (POST /admin/customobject/validate), listing what does not match or saying it is valid.
 */
export function SampleValidator({
  site,
  schema,
  idPrefix,
}: {
  site: SiteRef;
  schema: string;
  idPrefix: string;
}) {
  const t = useT('siteSettings');
  const check = useValidateSample(site);
  const [sample, setSample] = useState('');
  const [result, setResult] = useState<Result | undefined>();
  const [checkedSchema, setCheckedSchema] = useState(schema);
  // A result speaks of the schema and sample it was given: it goes once either changes.
  const shown = checkedSchema === schema ? result : undefined;

  const run = () => {
    if (check.isPending) return;
    const r = validate(validateCustomObjectBody, { Schema: schema, Sample: sample });
    setCheckedSchema(schema);
    if (!r.ok) {
      setResult({ failure: r.errors.Schema ?? r.errors.Sample ?? '' });
      return;
    }
    setResult(undefined);
    check.mutate(r.data, {
      onSuccess: (answer) => setResult({ Valid: answer.Valid, Errors: answer.Errors }),
      onError: (error) => setResult({ failure: errorText(error) }),
    });
  };

  return (
    <div className={styles.sampleValidator}>
      <h4 className={styles.sampleHeading}>{t('sampleHeading')}</h4>
      <p className="field-hint">{t('sampleIntro')}</p>
      <TextAreaField
        id={`${idPrefix}-sample`}
        name="Sample"
        label={t('sample')}
        value={sample}
        rows={4}
        className={registrationFieldsSectionStyles.codeInput}
        spellCheck={false}
        onValueChange={(v) => {
          setSample(v);
          setResult(undefined);
        }}
      />
      <div className="form-actions">
        <button type="button" className="button button-small" aria-busy={check.isPending} onClick={run}>
          {check.isPending ? t('validating') : t('validateSample')}
        </button>
      </div>
      {shown && 'failure' in shown ? (
        <p className={`form-alert ${styles.sampleResult}`} role="alert">
          {shown.failure}
        </p>
      ) : null}
      {shown && 'Valid' in shown && shown.Valid ? (
        <p className={`notice notice-success ${styles.sampleResult}`} role="status">
          {t('sampleValid')}
        </p>
      ) : null}
      {shown && 'Valid' in shown && !shown.Valid ? (
        <div className={`form-alert ${styles.sampleResult}`} role="alert">
          <p>{t('sampleInvalid')}</p>
          <ul aria-label={t('sampleErrors')}>
            {shown.Errors.map((e) => (
              <li key={`${e.Path}: ${e.Message}`}>
                {t('sampleErrorItem', { path: e.Path, message: e.Message })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
