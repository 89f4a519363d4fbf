/** The fields most lists filter by, filled from the address (see Filters). */
import { commonTexts } from '../common-texts.js';
import { useTexts } from '../i18n.js';
import { useLocation } from '../router.js';
import { Field, SelectField } from './form.js';
import { useStatusLabel } from './status-badge.js';

export function ReferenceField() {
  const c = useTexts(commonTexts);
  const { query } = useLocation();
  return <Field label={c('reference')} name="reference" defaultValue={query.get('reference') ?? ''} />;
}

/** The number in international form, as the API matches it exactly. */
export function PhoneField() {
  const c = useTexts(commonTexts);
  const { query } = useLocation();
  return <Field label={c('phone')} name="phone" type="tel" inputMode="tel" placeholder="+229 01 97 00 00 00" hint={c('phone_hint')} defaultValue={query.get('phone') ?? ''} />;
}

export function StatusField({ statuses }: { statuses: readonly string[] }) {
  const c = useTexts(commonTexts);
  const statusLabel = useStatusLabel();
  const { query } = useLocation();
  return (
    <SelectField label={c('status')} name="status" defaultValue={query.get('status') ?? ''}>
      <option value="">{c('all')}</option>
      {statuses.map((status) => (
        <option value={status}>{statusLabel(status)}</option>
      ))}
    </SelectField>
  );
}

/** From and to, whole days (listQueryFrom turns them into created_gte / created_lte). */
export function DateRangeFields() {
  const c = useTexts(commonTexts);
  const { query } = useLocation();
  return (
    <>
      <Field label={c('from')} name="from" type="date" defaultValue={query.get('from') ?? ''} />
      <Field label={c('to')} name="to" type="date" defaultValue={query.get('to') ?? ''} />
    </>
  );
}
