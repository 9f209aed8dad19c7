export default function Share({ token }: { token: string }) {
  return (
    <main id="main">
      <h1>Shared debate</h1>
      <p>{token}</p>
    </main>
  );
}
