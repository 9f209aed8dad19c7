export default function Page() {
  return (
    <section>
      <h1>Workspaces</h1>
    </section>
  );
}
