export default function Page({ id }: { id: string }) {
  return (
    <section>
      <h1>Argument graph</h1>
      <p>{id}</p>
    </section>
  );
}
