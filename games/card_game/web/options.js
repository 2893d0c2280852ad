// The card game's own settings in the table's forms: none offered yet (the server deals every game with shuffled
// score tracks), so the forms show nothing of it and it adds nothing to a room's settings.
//
//   h(Options, {lang, mode, settings, send, handle})   mode: "create", "host" or "guest" (client_web/README.md)

import { Component } from "/ui.js";

export class Options extends Component {
  constructor(props) {
    super(props);
    if (props.handle) props.handle.current = this;
  }

  values() { return {}; }

  refused() { return false; }

  created() {}

  render() { return null; }
}
