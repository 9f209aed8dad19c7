export default function Page() {
  return (
    <section>
      <h1>Outcomes</h1>
    </section>
  );
}
