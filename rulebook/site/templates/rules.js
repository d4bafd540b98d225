    // The rules page's little script: the copy buttons, the outline folded on a narrow screen, the offline copy.
    (() => {
      const status = document.createElement("p");
      status.className = "copied";
      status.setAttribute("role", "status");
      document.body.append(status);
      function say(text) {
        status.textContent = text;
        clearTimeout(say.timer);
        say.timer = setTimeout(() => { status.textContent = ""; }, 2500);
      }
      function fallback(button, address) {
        // no clipboard (an old browser, a page not served over https): the address, selected, to copy by hand
        let field = button.parentElement.querySelector("input.address");
        if (!field) {
          field = document.createElement("input");
          field.className = "address";
          field.readOnly = true;
          field.setAttribute("aria-label", "The link to " + button.dataset.rule);
          button.after(field);
        }
        field.value = address;
        field.focus();
        field.select();
        say("The link is selected: copy it with Ctrl+C (or ⌘C).");
      }
      document.addEventListener("click", (event) => {
        const button = event.target.closest("button.copy");
        if (!button) return;
        const address = location.href.split("#")[0] + "#" + button.dataset.rule;
        history.replaceState(null, "", "#" + button.dataset.rule);
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(address).then(
            () => say("Copied the link to " + button.dataset.rule + "."),
            () => fallback(button, address));
        } else {
          fallback(button, address);
        }
      });
      const outline = document.getElementById("outline");
      const narrow = window.matchMedia("(max-width: 820px)");
      if (outline && narrow.matches) outline.open = false;
      if (outline) outline.addEventListener("click", (event) => {
        if (narrow.matches && event.target.closest("a")) outline.open = false;
      });
      if ("serviceWorker" in navigator && location.protocol !== "file:") {
        // its scope is this page's folder only: JupyterLite's pages and their own service worker are not in it
        const root = document.querySelector("link[rel=stylesheet]").getAttribute("href").replace("rules/rules.css", "");
        navigator.serviceWorker.register(root + "rules-sw.js", { scope: "./" }).catch(() => {});
      }
    })();
