// A seat token carried by a link, /?room=CODE#NAME=TOKEN: the token rides in the fragment, which browsers never
// send to a server, so no access log holds it. A turn e-mail's link carries #resume= (turns.js), "continue on
// another device" #seat= (device.js).

// {room, token} of such a link when the address has both (and `valid(token)`), the token then taken off the
// address bar; null otherwise, the address left as it is.
export function tokenFromLink(name, valid = () => true) {
  const room = new URLSearchParams(location.search).get("room");
  const token = new URLSearchParams(location.hash.slice(1)).get(name);
  if (!room || !token || !valid(token)) return null;
  history.replaceState(null, "", `${location.pathname}${location.search}`);
  return { room, token };
}
