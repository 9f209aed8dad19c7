export default function Page() {
  return (
    <section>
      <h1>API keys</h1>
    </section>
  );
}
