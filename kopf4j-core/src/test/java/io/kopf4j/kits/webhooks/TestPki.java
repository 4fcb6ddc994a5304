package io.kopf4j.kits.webhooks;

import io.kopf4j.internal.pki.CertificateBuilder;
import io.kopf4j.internal.pki.Pem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/** A CA for tests, and the certificates it signs: servers' (for given names) and clients'. */
record TestPki(X509Certificate ca, PrivateKey caKey) {
    static TestPki create(String name) throws Exception {
        KeyPair keys = CertificateBuilder.ecKeys();
        return new TestPki(new CertificateBuilder("CN=" + name, keys.getPublic()).ca().selfSigned(keys.getPrivate()), keys.getPrivate());
    }

    record Issued(X509Certificate certificate, PrivateKey key) {
        List<X509Certificate> chain(TestPki pki) {
            return List.of(certificate, pki.ca());
        }
    }

    Issued server(String... names) throws Exception {
        KeyPair keys = CertificateBuilder.ecKeys();
        return new Issued(new CertificateBuilder("CN=" + names[0], keys.getPublic()).serverAuth().sans(List.of(names))
                .signedBy(ca, caKey), keys.getPrivate());
    }

    Issued client(String subject) throws Exception {
        KeyPair keys = CertificateBuilder.ecKeys();
        return new Issued(new CertificateBuilder(subject, keys.getPublic()).clientAuth().signedBy(ca, caKey), keys.getPrivate());
    }

    String caPem() {
        return Pem.encode(ca);
    }

    /** Writes the certificate (with this CA after it) and the key as PEM files; the key last, as a renewal might. */
    void write(Issued issued, Path certfile, Path pkeyfile) throws Exception {
        Files.writeString(certfile, Pem.encode(issued.certificate()) + caPem());
        Files.writeString(pkeyfile, Pem.encode(issued.key()));
    }
}
