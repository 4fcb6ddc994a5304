package io.kopf4j.internal.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.openssl.jcajce.JcaMiscPEMGenerator;
import org.junit.jupiter.api.Test;

class KeyMaterialTest {
    @Test
    void acceptsTheCertificatesOwnKeyOfEitherType() throws Exception {
        for (KeyPair keys : List.of(CertificateBuilder.ecKeys(), CertificateBuilder.rsaKeys())) {
            X509Certificate certificate = new CertificateBuilder("CN=localhost", keys.getPublic()).selfSigned(keys.getPrivate());

            assertThat(new KeyMaterial(List.of(certificate), keys.getPrivate()).chain()).containsExactly(certificate);
        }
    }

    /** As while a renewal has written the new key but not yet the new certificate. */
    @Test
    void refusesAKeyOfAnotherCertificate() throws Exception {
        KeyPair oldKeys = CertificateBuilder.ecKeys();
        X509Certificate old = new CertificateBuilder("CN=localhost", oldKeys.getPublic()).selfSigned(oldKeys.getPrivate());
        KeyPair renewed = CertificateBuilder.ecKeys();

        assertThatThrownBy(() -> new KeyMaterial(List.of(old), renewed.getPrivate()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not belong");
    }

    @Test
    void readsKeysInOpensslsTraditionalForm() throws Exception {
        KeyPair keys = CertificateBuilder.rsaKeys();
        String traditional = Pem.encode(new JcaMiscPEMGenerator(keys.getPrivate()));

        assertThat(traditional).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        assertThat(Pem.privateKey(traditional, null)).isEqualTo(keys.getPrivate());
    }
}
