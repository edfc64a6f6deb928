import { CASE_REFERENCE_MAX } from '@sac/contract/access-reasons';
import { PRIORITIES, type Priority } from '@sac/contract/impersonation';
import { useState } from 'react';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import formFieldStyles from '../../../components/form-field.module.css';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useApprovers, useCustomerRoles, useReasonSettings } from '../api/impersonation-api.ts';
import { permissionNames } from './request-view.ts';

export interface RequestValues {
  Priority: Priority | '';
  Description: string;
  ReasonCode: string;
  CaseReference: string;
  Assignees: string[];
  ProxyRoles: string[];
  AdditionalPermissions: string[];
}
export type RequestField = keyof RequestValues;

interface RequestFieldsProps {
  /** Prefix of the inputs' ids ('edit', 'create'). */
  idPrefix: string;
  values: RequestValues;
  set: <F extends RequestField>(field: F, value: RequestValues[F]) => void;
  touch: (field: RequestField) => void;
  shown: (field: RequestField) => string | undefined;
  /** Roles held by other live requests for this app: not offered (unless already chosen). */
  takenRoles: readonly string[];
}

/** With more SuperAdmins than this, a search field narrows the assignee choices. */
const FIND_FROM = 6;

/**
 * The fields a requester fills: priority, reason code and case, description, assignees (chosen among the SuperAdmins,
 * spec section 5, with a search once they are many), customer roles and their permissions.
 */
export function RequestFields(props: RequestFieldsProps) {
  const { idPrefix, values, set, touch, shown } = props;
  const t = useT('impersonation');
  return (
    <>
      <SelectField
        id={`${idPrefix}-priority`}
        name="Priority"
        label={t('priority')}
        placeholder={t('choosePriority')}
        options={PRIORITIES.map((p) => ({ value: p, label: t(`priority.${p}`) }))}
        value={values.Priority}
        error={shown('Priority')}
        onValueChange={(v) => set('Priority', v as Priority | '')}
        onBlur={() => touch('Priority')}
        required
      />
      <ReasonFields {...props} />
      <TextAreaField
        id={`${idPrefix}-description`}
        name="Description"
        label={t('description')}
        value={values.Description}
        error={shown('Description')}
        onValueChange={(v) => set('Description', v)}
        onBlur={() => touch('Description')}
        required
      />
      <AssigneesField {...props} />
      <RolesFields {...props} />
    </>
  );
}

/**
 * The reason code (the operator's list, from the server) and the case or ticket reference,
 * required or optional as the operator set it; the link pattern is said under it.
 */
function ReasonFields({ idPrefix, values, set, touch, shown }: RequestFieldsProps) {
  const t = useT('impersonation');
  const settings = useReasonSettings();
  if (settings.isPending) return <Skeleton lines={2} />;
  if (!settings.data) {
    return (
      <p className="form-alert" role="alert">
        {t('reasonsFailed')}
      </p>
    );
  }
  const { codes, caseRequired, caseUrlPattern } = settings.data;
  // A code no longer offered (an older request's) stays choosable as it was.
  const listed = codes.some((c) => c.Code === values.ReasonCode) || values.ReasonCode === '';
  return (
    <>
      <SelectField
        id={`${idPrefix}-reason`}
        name="ReasonCode"
        label={t('reasonCode')}
        placeholder={t('chooseReason')}
        options={[
          ...codes.map((c) => ({ value: c.Code, label: c.Label })),
          ...(listed ? [] : [{ value: values.ReasonCode, label: values.ReasonCode }]),
        ]}
        value={values.ReasonCode}
        error={shown('ReasonCode')}
        onValueChange={(v) => set('ReasonCode', v)}
        onBlur={() => touch('ReasonCode')}
        required
      />
      <FormField
        id={`${idPrefix}-case`}
        name="CaseReference"
        autoComplete="off"
        maxLength={CASE_REFERENCE_MAX}
        label={caseRequired ? t('caseReference') : t('caseReferenceOptional')}
        hint={caseUrlPattern ? t('caseLinkHint') : t('caseHint')}
        value={values.CaseReference}
        error={shown('CaseReference')}
        onValueChange={(v) => set('CaseReference', v)}
        onBlur={() => touch('CaseReference')}
        required={caseRequired}
      />
    </>
  );
}

/** The SuperAdmins to assign, with a search field once they are more than FIND_FROM. */
function AssigneesField({ idPrefix, values, set, touch, shown }: RequestFieldsProps) {
  const t = useT('impersonation');
  const approvers = useApprovers();
  const [find, setFind] = useState('');
  // The SuperAdmins, and any assignee of the request who no longer is one (to be unticked).
  const assigneeOptions: Array<{ value: string; label: string; hint?: string }> | undefined = approvers.data
    ? [
        ...approvers.data.map((a) => ({ value: a.Email, label: a.Email, hint: a.Name || undefined })),
        ...values.Assignees.filter((e) => !approvers.data.some((a) => a.Email === e)).map((e) => ({
          value: e,
          label: e,
        })),
      ]
    : undefined;
  const needle = find.trim().toLowerCase();
  const shownAssignees = assigneeOptions?.filter(
    (o) =>
      !needle ||
      values.Assignees.includes(o.value) ||
      o.value.toLowerCase().includes(needle) ||
      (o.hint ?? '').toLowerCase().includes(needle),
  );
  if (!assigneeOptions || !shownAssignees) {
    return approvers.isPending ? (
      <Skeleton lines={1} />
    ) : (
      <p className="form-alert" role="alert">
        {t('superAdminsFailed')}
      </p>
    );
  }
  return (
    <>
      {assigneeOptions.length > FIND_FROM ? (
        <FormField
          id={`${idPrefix}-find-assignee`}
          name="findAssignee"
          type="search"
          autoComplete="off"
          label={t('findAssignee')}
          value={find}
          onValueChange={setFind}
        />
      ) : null}
      <CheckboxGroup
        legend={t('assignees')}
        name="Assignees"
        options={shownAssignees}
        value={values.Assignees}
        error={shown('Assignees') ?? (assigneeOptions.length === 0 ? t('noSuperAdmins') : undefined)}
        onChange={(v) => set('Assignees', v)}
        onBlur={() => touch('Assignees')}
      />
    </>
  );
}

type RolesValues = Pick<RequestValues, 'ProxyRoles' | 'AdditionalPermissions'>;
interface RolesFieldsProps {
  values: RolesValues;
  set: <F extends keyof RolesValues>(field: F, value: RolesValues[F]) => void;
  touch: (field: 'ProxyRoles') => void;
  shown: (field: keyof RolesValues) => string | undefined;
  takenRoles: readonly string[];
}

/**
 * The customer roles to use (those of other live requests left out) and their permissions: the
 * request's fields, and break-glass's.
 */
export function RolesFields({ values, set, touch, shown, takenRoles }: RolesFieldsProps) {
  const t = useT('impersonation');
  const customerRoles = useCustomerRoles();
  if (customerRoles.isError) {
    return (
      <div className="field">
        <p className="form-alert" role="alert">
          {t('customerRolesFailed')}
        </p>
        <div>
          <button type="button" className="button button-small" onClick={() => void customerRoles.refetch()}>
            {t('retry')}
          </button>
        </div>
      </div>
    );
  }
  if (customerRoles.isPending) return <Skeleton lines={1} />;
  const roleNames = customerRoles.data.map((r) => r.Name);
  const taken = roleNames.filter((n) => takenRoles.includes(n) && !values.ProxyRoles.includes(n));
  const roleOptions = roleNames.filter((n) => !taken.includes(n));
  const permissionOptions = [
    ...new Set([...permissionNames(customerRoles.data), ...values.AdditionalPermissions]),
  ];
  return (
    <>
      <CheckboxGroup
        legend={t('roles')}
        name="ProxyRoles"
        options={roleOptions.map((n) => ({ value: n, label: n }))}
        value={values.ProxyRoles}
        error={shown('ProxyRoles')}
        onChange={(v) => set('ProxyRoles', v)}
        onBlur={() => touch('ProxyRoles')}
      />
      {taken.length > 0 ? (
        <p className={`field-hint ${formFieldStyles.fieldHintAfter}`}>
          {t('rolesTakenHint', { roles: taken.join(', ') })}
        </p>
      ) : null}
      <CheckboxGroup
        legend={t('additionalPermissions')}
        name="AdditionalPermissions"
        options={permissionOptions.map((n) => ({ value: n, label: n }))}
        value={values.AdditionalPermissions}
        error={shown('AdditionalPermissions')}
        onChange={(v) => set('AdditionalPermissions', v)}
      />
    </>
  );
}
