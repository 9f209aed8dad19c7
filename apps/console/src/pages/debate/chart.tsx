export default function Page({ id }: { id: string }) {
  return (
    <section>
      <h1>State chart</h1>
      <p>{id}</p>
    </section>
  );
}
