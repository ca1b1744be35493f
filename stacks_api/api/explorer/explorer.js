// The API explorer: Swagger UI over this server's OpenAPI document. A file of its
// own, not an inline script, so the page's Content-Security-Policy allows no inline
// script at all.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  persistAuthorization: true,
});
