import { DebateList } from './debates/debate-list.tsx';
import { DebateSearch } from './debates/debate-search.tsx';
import { NewDebateForm } from './debates/new-debate-form.tsx';

/** The home page: start a debate, find one, or browse them all. */
export default function DebatesPage() {
  return (
    <section className="dashboard">
      <h1>Debates</h1>
      <NewDebateForm />
      <DebateSearch />
      <DebateList />
    </section>
  );
}
