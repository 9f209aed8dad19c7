export default function Page() {
  return (
    <section>
      <h1>Notifications</h1>
    </section>
  );
}
