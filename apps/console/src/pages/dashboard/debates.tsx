export default function Page() {
  return (
    <section>
      <h1>Debates</h1>
    </section>
  );
}
