export default function Page() {
  return (
    <section>
      <h1>Usage</h1>
    </section>
  );
}
