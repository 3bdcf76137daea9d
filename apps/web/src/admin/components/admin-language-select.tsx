import { LanguageSelect } from '@/components/language-select';
import { ADMIN_LANGUAGES } from '../lib/admin-texts';

export function AdminLanguageSelect() {
  return <LanguageSelect languages={ADMIN_LANGUAGES} />;
}
