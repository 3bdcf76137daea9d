import { ApiPath, type QuickPanelData } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

export function getQuickPanelData(): Promise<QuickPanelData> {
  return api.get<QuickPanelData>(ApiPath.quickPanelData);
}
