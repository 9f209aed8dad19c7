export default function Page({ id }: { id: string }) {
  return (
    <section>
      <h1>Debate</h1>
      <p>{id}</p>
    </section>
  );
}
