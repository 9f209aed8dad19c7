import { useCallback, useState } from 'react';
import type { Schemas } from '../../lib/api.ts';
import { DebateList } from './debates/debate-list.tsx';
import { DebateSearch } from './debates/debate-search.tsx';
import { NewDebateForm } from './debates/new-debate-form.tsx';

/** The home page: start a debate, find one, or browse them all. */
export default function DebatesPage() {
  const [simulated, setSimulated] = useState(false);
  const noticeSimulated = useCallback((page: Schemas['DebatePage']) => {
    const ranSimulated = page.debates.some((d) =>
      d.verdict?.agentsUsed.some((a) => a.startsWith('simulated/')),
    );
    if (ranSimulated) setSimulated(true);
  }, []);
  return (
    <section className="dashboard">
      <h1>Debates</h1>
      <NewDebateForm simulated={simulated} />
      <DebateSearch />
      <DebateList onLoaded={noticeSimulated} />
    </section>
  );
}
