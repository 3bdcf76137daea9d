import { RouterProvider } from 'react-router';
import { Toaster } from '@/components/ui/toaster';
import { BrowserSupportGate } from '@/features/system';
import { IpCheckGate } from '@/features/system';
import { router } from './router';
import { ThemeRoot } from './theme-root';

export function App() {
  return (
    <ThemeRoot>
      <BrowserSupportGate>
        <IpCheckGate>
          <RouterProvider router={router} />
        </IpCheckGate>
      </BrowserSupportGate>
      <Toaster />
    </ThemeRoot>
  );
}
