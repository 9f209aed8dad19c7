export default function Page() {
  return (
    <section>
      <h1>Decision score</h1>
    </section>
  );
}
