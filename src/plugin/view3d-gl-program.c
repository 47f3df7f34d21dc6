/* The 3D view's OpenGL program (view3d-gl.h): the shading of src/terrain/view3d.c in GLSL,
 * line for line, so that both renderers draw one picture (tests/gui/test-view3d-gl.c
 * compares them). Colours come from terrain_view3d_palette as uniforms. */
#include "view3d-gl-program.h"

/* kind: 0 sky (one triangle over the picture), 1 the surface (a strip a row of cells:
 * instance = row, two vertices a column, the lower row first so that the cells' diagonal runs
 * from their top-left to their bottom-right, as the CPU's does), 2 the sea, 3-6 the walls
 * (north, east, south, west). */
static const char VERTEX_SHADER[] =
  "#version 330 core\n"
  "uniform int kind;\n"
  "uniform ivec2 grid;\n"
  "uniform float zscale;\n"
  "uniform sampler2D surface;\n" /* h, horizon: bilinear; texelFetch for vertices */
  "uniform vec3 eye, forward, right, up;\n"
  "uniform vec4 screen;\n" /* centre_x, centre_y, 2 scale / width, 2 scale / height */
  "uniform vec2 depth_range;\n"
  "in vec3 position;\n"
  "out vec3 world;\n"
  "void main () {\n"
  "  if (kind == 0) {\n"
  "    vec2 c = vec2 ((gl_VertexID << 1) & 2, gl_VertexID & 2);\n"
  "    world = vec3 (0.0);\n"
  "    gl_Position = vec4 (2.0 * c - 1.0, 0.0, 1.0);\n"
  "    return;\n"
  "  }\n"
  "  vec3 p = position;\n"
  "  if (kind == 1) {\n"
  "    ivec2 v = ivec2 (gl_VertexID >> 1, gl_InstanceID + 1 - (gl_VertexID & 1));\n"
  "    p = vec3 (vec2 (v) - 0.5 * vec2 (grid - 1),\n"
  "              texelFetch (surface, v, 0).r * zscale);\n"
  "  }\n"
  "  world = p;\n"
  "  vec3 d = p - eye;\n"
  "  float depth = dot (d, forward);\n"
  "  float n = 0.9 * depth_range.x, f = 1.1 * depth_range.y;\n" /* the scene stays inside */
  "  gl_Position = vec4 ((dot (d, right) - screen.x * depth) * screen.z,\n"
  "                      (dot (d, up) + screen.y * depth) * screen.w,\n"
  "                      ((f + n) * depth - 2.0 * f * n) / (f - n), depth);\n"
  "}\n";

static const char FRAGMENT_SHADER[] =
  "#version 330 core\n"
  "uniform int kind;\n"
  "uniform ivec2 grid;\n"
  "uniform float zscale;\n"
  "uniform sampler2D surface;\n"
  "uniform sampler2D normals;\n"
  "uniform vec3 eye, forward, sun;\n"
  "uniform vec2 depth_range;\n"
  "uniform vec2 picture;\n" /* width, height */
  "uniform bool gray, sea;\n"
  "uniform float sea_level;\n"
  "uniform float stop_height[6];\n"
  "uniform vec3 stops[6];\n"
  "uniform vec3 rock, sand, water, wall, plain, sky_top, sky_low;\n"
  "in vec3 world;\n"
  "out vec4 colour;\n"
  "vec3 linear (vec3 s) {\n"
  "  return mix (s / 12.92, pow ((s + 0.055) / 1.055, vec3 (2.4)), greaterThan (s, vec3 (0.04045)));\n"
  "}\n"
  "vec3 encode (vec3 l) {\n"
  "  l = clamp (l, 0.0, 1.0);\n"
  "  return mix (12.92 * l, 1.055 * pow (l, vec3 (1.0 / 2.4)) - 0.055, greaterThan (l, vec3 (0.0031308)));\n"
  "}\n"
  "vec3 ground (float h, float n_up) {\n"
  "  if (gray) return linear (plain);\n"
  "  vec3 c = stops[5];\n"
  "  for (int k = 0; k < 5; k++)\n"
  "    if (h < stop_height[k + 1]) {\n"
  "      float t = (h - stop_height[k]) / (stop_height[k + 1] - stop_height[k]);\n"
  "      c = h <= stop_height[0] ? stops[0] : mix (stops[k], stops[k + 1], t);\n"
  "      break;\n"
  "    }\n"
  "  c = mix (c, rock, smoothstep (0.10, 0.30, 1.0 - n_up));\n"
  "  if (sea) c = mix (sand, c, smoothstep (sea_level + 0.005, sea_level + 0.02, h));\n"
  "  return linear (c);\n"
  "}\n"
  "vec3 light (vec3 albedo, vec3 n, float lit, float shine, float exponent) {\n"
  "  float nl = dot (n, sun);\n"
  "  float diffuse = max (nl, 0.0) * lit;\n"
  "  float sky = 0.22 * (0.55 + 0.45 * n.z);\n"
  "  float rv = dot (2.0 * nl * n - sun, normalize (eye - world));\n"
  "  float spec = nl > 0.0 ? shine * pow (max (rv, 0.0), exponent) * lit : 0.0;\n"
  "  return albedo * (diffuse * vec3 (1.00, 0.97, 0.90) + sky * vec3 (1.00, 1.05, 1.20)) + spec;\n"
  "}\n"
  "float lit_at (float z, float horizon) {\n"
  "  return clamp (1.0 + (z - horizon) / 0.35, 0.0, 1.0);\n"
  "}\n"
  "void main () {\n"
  "  float row = picture.y - gl_FragCoord.y - 0.5;\n"
  "  vec3 sky = linear (mix (sky_top, sky_low, picture.y > 1.0 ? row / (picture.y - 1.0) : 0.0));\n"
  "  if (kind == 0) { colour = vec4 (encode (sky), 1.0); return; }\n"
  "  vec2 at = (clamp (world.xy + 0.5 * vec2 (grid - 1), vec2 (0.0), vec2 (grid - 1)) + 0.5) / vec2 (grid);\n"
  "  vec2 s = texture (surface, at).rg;\n"
  "  vec3 n = normalize (texture (normals, at).rgb);\n"
  "  vec3 c;\n"
  "  if (kind == 1)\n"
  "    c = light (ground (s.x, n.z), n, lit_at (world.z, s.y), 0.08, 12.0);\n"
  "  else if (kind == 2)\n"
  "    c = light (linear (water), vec3 (0.0, 0.0, 1.0), lit_at (world.z, s.y), 0.45, 60.0);\n"
  "  else {\n"
  "    const vec3 outward[4] = vec3[4] (vec3 (0, -1, 0), vec3 (1, 0, 0), vec3 (0, 1, 0), vec3 (-1, 0, 0));\n"
  "    vec3 albedo = sea && world.z > s.x * zscale + 1e-3 ? water : wall;\n"
  "    c = light (linear (albedo), outward[kind - 3], 1.0, 0.0, 1.0);\n"
  "  }\n"
  "  float depth = dot (world - eye, forward);\n"
  "  float haze = 0.25 * clamp ((depth - depth_range.x) / (depth_range.y - depth_range.x), 0.0, 1.0);\n"
  "  colour = vec4 (encode (mix (c, sky, haze)), 1.0);\n"
  "}\n";

static GLuint
compile (GLenum type, const char *source, char **error)
{
  GLuint shader = glCreateShader (type);
  GLint  ok = GL_FALSE;
  glShaderSource (shader, 1, &source, NULL);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  if (ok)
    return shader;
  char log[1024] = "";
  glGetShaderInfoLog (shader, sizeof log, NULL, log);
  *error = g_strdup_printf ("the %s shader does not build: %s",
                            type == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
  glDeleteShader (shader);
  return 0;
}

GLuint
terrain_view3d_gl_program (char **error)
{
  GLuint vertex = compile (GL_VERTEX_SHADER, VERTEX_SHADER, error);
  GLuint fragment = vertex ? compile (GL_FRAGMENT_SHADER, FRAGMENT_SHADER, error) : 0;
  if (fragment == 0)
    {
      glDeleteShader (vertex);
      return 0;
    }
  GLuint program = glCreateProgram ();
  GLint  ok = GL_FALSE;
  glAttachShader (program, vertex);
  glAttachShader (program, fragment);
  glBindAttribLocation (program, 0, "position");
  glLinkProgram (program);
  glDeleteShader (vertex); /* kept until the program goes */
  glDeleteShader (fragment);
  glGetProgramiv (program, GL_LINK_STATUS, &ok);
  if (ok)
    return program;
  char log[1024] = "";
  glGetProgramInfoLog (program, sizeof log, NULL, log);
  *error = g_strdup_printf ("the shaders do not link: %s", log);
  glDeleteProgram (program);
  return 0;
}
