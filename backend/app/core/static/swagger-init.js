// Starts Swagger UI on /docs. A file, not an inline script, so the page runs under the app's
// Content-Security-Policy (script-src 'self'); the OpenAPI URL comes from the page's data attribute.
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi-url"),
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
  });
});
