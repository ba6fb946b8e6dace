#version 330 core
// Hemisphere ambient + one key light + a weak fill + Blinn-Phong specular, in linear space.
// The selection highlight adds a warm rim; the pattern darkens alternate quadrants about the
// local X axis so that spinning spheres and capsules visibly turn.

in vec3 vWorldPos;
in vec3 vNormal;
in vec3 vLocal;
in vec4 vColor;
in vec2 vParams;

uniform vec3 uCameraPos;
uniform vec3 uLightDir;  // towards the key light, world, normalised

out vec4 fragColor;

vec3 toLinear(vec3 c) { return pow(c, vec3(2.2)); }
vec3 toSrgb(vec3 c) { return pow(c, vec3(1.0 / 2.2)); }

void main() {
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing) n = -n;
    vec3 v = normalize(uCameraPos - vWorldPos);
    vec3 base = toLinear(vColor.rgb);

    float quadrant = (vLocal.y * vLocal.z >= 0.0) ? 1.0 : 0.0;
    base *= mix(1.0, mix(0.72, 1.0, quadrant), vParams.y);

    vec3 sky = vec3(0.55, 0.60, 0.70);
    vec3 ground = vec3(0.18, 0.16, 0.14);
    vec3 ambient = mix(ground, sky, 0.5 + 0.5 * n.y) * 0.55;
    float key = max(dot(n, uLightDir), 0.0);
    float fill = max(dot(n, normalize(vec3(-0.6, 0.25, -0.75))), 0.0) * 0.25;
    vec3 h = normalize(uLightDir + v);
    float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.25 * step(0.0, key);

    vec3 color = base * (ambient + vec3(1.0, 0.97, 0.92) * key * 0.9 + fill) + vec3(spec);

    float rim = pow(1.0 - max(dot(n, v), 0.0), 2.0);
    vec3 highlight = vec3(1.0, 0.62, 0.12);
    color = mix(color, color * 1.15 + highlight * (0.08 + 0.9 * rim), vParams.x);

    fragColor = vec4(toSrgb(color), vColor.a);
}
