import { useEffect, useState } from 'react';

/** The claim a `#claim-<id>` link points at, scrolled into view once it is on the page. */
export function useClaimInHash(): string | null {
  const [claim, setClaim] = useState(() => claimOf(window.location.hash));
  useEffect(() => {
    const onHash = () => setClaim(claimOf(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (!claim) return;
    const timer = window.setInterval(() => {
      const element = document.getElementById(`claim-${claim}`);
      if (!element) return;
      element.scrollIntoView({ block: 'center' });
      window.clearInterval(timer);
    }, 100);
    return () => window.clearInterval(timer);
  }, [claim]);
  return claim;
}

const claimOf = (hash: string) => (hash.startsWith('#claim-') ? hash.slice('#claim-'.length) : null);
